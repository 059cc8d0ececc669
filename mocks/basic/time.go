package basic

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-ins for agent_clock (own) and world_time (own): the sandbox clock
// read in any time zone, and time-zone facts computed with Go's time
// package and its embedded zone database.

// tzAbbreviations maps common abbreviations to the zone people usually
// mean by them. Abbreviations are ambiguous (IST is India, Ireland and
// Israel); the most common reading wins.
var tzAbbreviations = map[string]string{
	"UTC": "UTC", "GMT": "UTC", "Z": "UTC", "ZULU": "UTC",
	"EST": "America/New_York", "EDT": "America/New_York", "ET": "America/New_York",
	"CST": "America/Chicago", "CDT": "America/Chicago", "CT": "America/Chicago",
	"MST": "America/Denver", "MDT": "America/Denver", "MT": "America/Denver",
	"PST": "America/Los_Angeles", "PDT": "America/Los_Angeles", "PT": "America/Los_Angeles",
	"AKST": "America/Anchorage", "AKDT": "America/Anchorage", "HST": "Pacific/Honolulu",
	"BST": "Europe/London", "WET": "Europe/Lisbon", "WEST": "Europe/Lisbon",
	"CET": "Europe/Paris", "CEST": "Europe/Paris", "EET": "Europe/Athens", "EEST": "Europe/Athens",
	"MSK": "Europe/Moscow", "IST": "Asia/Kolkata", "PKT": "Asia/Karachi", "GST": "Asia/Dubai",
	"ICT": "Asia/Bangkok", "WIB": "Asia/Jakarta", "SGT": "Asia/Singapore", "HKT": "Asia/Hong_Kong",
	"CCT": "Asia/Shanghai", "JST": "Asia/Tokyo", "KST": "Asia/Seoul", "PHT": "Asia/Manila",
	"AEST": "Australia/Sydney", "AEDT": "Australia/Sydney", "ACST": "Australia/Adelaide",
	"AWST": "Australia/Perth", "NZST": "Pacific/Auckland", "NZDT": "Pacific/Auckland",
	"BRT": "America/Sao_Paulo", "ART": "America/Argentina/Buenos_Aires", "SAST": "Africa/Johannesburg",
	"EAT": "Africa/Nairobi", "WAT": "Africa/Lagos", "CAT": "Africa/Maputo",
}

// tzLongNames names the abbreviations Go reports, for responses that
// carry a long name.
var tzLongNames = map[string]string{
	"UTC": "Coordinated Universal Time", "GMT": "Greenwich Mean Time", "BST": "British Summer Time",
	"WET": "Western European Time", "WEST": "Western European Summer Time",
	"CET": "Central European Time", "CEST": "Central European Summer Time",
	"EET": "Eastern European Time", "EEST": "Eastern European Summer Time", "MSK": "Moscow Standard Time",
	"EST": "Eastern Standard Time", "EDT": "Eastern Daylight Time", "CST": "Central Standard Time",
	"CDT": "Central Daylight Time", "MST": "Mountain Standard Time", "MDT": "Mountain Daylight Time",
	"PST": "Pacific Standard Time", "PDT": "Pacific Daylight Time", "HST": "Hawaii-Aleutian Standard Time",
	"IST": "India Standard Time", "JST": "Japan Standard Time", "KST": "Korea Standard Time",
	"AEST": "Australian Eastern Standard Time", "AEDT": "Australian Eastern Daylight Time",
	"NZST": "New Zealand Standard Time", "NZDT": "New Zealand Daylight Time", "SAST": "South Africa Standard Time",
	"EAT": "East Africa Time", "WAT": "West Africa Time", "HKT": "Hong Kong Time", "IDT": "Israel Daylight Time",
}

var tzOffsetRE = regexp.MustCompile(`^(?i)(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$`)

// tzLoad loads a zone once per process: parsing zone data costs more
// than a whole stand-in call.
func tzLoad(name string) (*time.Location, error) { return world.Zone(name) }

// ZoneError is a time zone the stand-ins cannot resolve.
type ZoneError struct{ Zone string }

func (e *ZoneError) Error() string {
	return fmt.Sprintf("unknown time zone %q: use an IANA name such as \"Europe/Lisbon\", an abbreviation such as \"CET\", an offset such as \"UTC+2\", or a city", e.Zone)
}

// tzResolve reads a time zone as people write it: an IANA name in any
// case ("europe/lisbon"), an abbreviation ("JST"), an offset ("UTC+5:30",
// "-03:00"), or a city of the world ("Tokyo").
func tzResolve(w *world.World, s string) (*time.Location, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.UTC, nil
	}
	if strings.EqualFold(s, "local") {
		return nil, &ZoneError{Zone: s} // the host's zone would make answers machine-dependent
	}
	if loc, err := tzLoad(s); err == nil {
		return loc, nil
	}
	if loc, err := tzLoad(tzIANACase(s)); err == nil {
		return loc, nil
	}
	if name, ok := tzAbbreviations[strings.ToUpper(s)]; ok {
		return tzLoad(name)
	}
	if m := tzOffsetRE.FindStringSubmatch(s); m != nil {
		h, _ := strconv.Atoi(m[2])
		mins, _ := strconv.Atoi(m[3])
		if h > 14 || mins >= 60 {
			return nil, &ZoneError{Zone: s}
		}
		off := h*3600 + mins*60
		if m[1] == "-" {
			off = -off
		}
		return time.FixedZone(tzOffsetString(off, true), off), nil
	}
	if c, ok := w.FindCity(s); ok {
		return c.Location(), nil
	}
	return nil, &ZoneError{Zone: s}
}

// tzIANACase turns "america/new york" into "America/New_York".
func tzIANACase(s string) string {
	parts := strings.Split(strings.ReplaceAll(strings.TrimSpace(s), " ", "_"), "/")
	for i, p := range parts {
		words := strings.Split(p, "_")
		for j, wd := range words {
			if len(wd) > 0 {
				words[j] = strings.ToUpper(wd[:1]) + strings.ToLower(wd[1:])
			}
		}
		parts[i] = strings.Join(words, "_")
	}
	return strings.Join(parts, "/")
}

// tzOffsetString writes an offset in seconds as "+01:00" (or "UTC+01:00").
func tzOffsetString(off int, utcPrefix bool) string {
	sign := '+'
	if off < 0 {
		sign = '-'
		off = -off
	}
	s := fmt.Sprintf("%c%02d:%02d", sign, off/3600, off%3600/60)
	if utcPrefix {
		return "UTC" + s
	}
	return s
}

func tzName(loc *time.Location, t time.Time) string {
	if loc == time.UTC {
		return "UTC"
	}
	return loc.String()
}

// tzFacts are the facts of a zone at an instant, in worldtimeapi.org's field names.
func tzFacts(loc *time.Location, now time.Time) map[string]any {
	t := now.In(loc)
	abbr, off := t.Zone()
	std := tzStandardOffset(loc, t)
	_, week := t.ISOWeek()
	facts := map[string]any{
		"timezone":     tzName(loc, t),
		"abbreviation": abbr,
		"utc_offset":   tzOffsetString(off, false),
		"raw_offset":   std,
		"dst":          t.IsDST(),
		"dst_offset":   off - std,
		"datetime":     t.Format("2006-01-02T15:04:05.000000-07:00"),
		"utc_datetime": t.UTC().Format("2006-01-02T15:04:05.000000+00:00"),
		"unixtime":     t.Unix(),
		"day_of_week":  int(t.Weekday()),
		"day_of_year":  t.YearDay(),
		"week_number":  week,
		"dst_from":     nil,
		"dst_until":    nil,
	}
	if t.IsDST() {
		if start, end := t.ZoneBounds(); !start.IsZero() && !end.IsZero() {
			facts["dst_from"] = start.UTC().Format(time.RFC3339)
			facts["dst_until"] = end.UTC().Format(time.RFC3339)
		}
	}
	if long, ok := tzLongNames[abbr]; ok {
		facts["timezone_name"] = long
	} else {
		facts["timezone_name"] = abbr
	}
	return facts
}

// tzStandardOffset is the zone's offset without daylight saving time in the
// year of t: the offset of whichever of January and July is not DST.
func tzStandardOffset(loc *time.Location, t time.Time) int {
	if !t.IsDST() {
		_, off := t.Zone()
		return off
	}
	for _, m := range []time.Month{time.January, time.July} {
		u := time.Date(t.Year(), m, 1, 12, 0, 0, 0, loc)
		if !u.IsDST() {
			_, off := u.Zone()
			return off
		}
	}
	_, off := t.Zone()
	return off - 3600
}

func tzError(err error) *sandbox.Rejection {
	return &sandbox.Rejection{Status: 400, Body: map[string]any{"error": err.Error()}}
}

// clockStrftime converts the common % directives; others are kept literally.
func clockStrftime(t time.Time, f string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'Y':
			b.WriteString(t.Format("2006"))
		case 'y':
			b.WriteString(t.Format("06"))
		case 'm':
			b.WriteString(t.Format("01"))
		case 'd':
			b.WriteString(t.Format("02"))
		case 'e':
			b.WriteString(t.Format("_2"))
		case 'H':
			b.WriteString(t.Format("15"))
		case 'I':
			b.WriteString(t.Format("03"))
		case 'M':
			b.WriteString(t.Format("04"))
		case 'S':
			b.WriteString(t.Format("05"))
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'b':
			b.WriteString(t.Format("Jan"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 'j':
			b.WriteString(fmt.Sprintf("%03d", t.YearDay()))
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

// clockFormat renders t in a named format or a clockStrftime pattern.
func clockFormat(t time.Time, format string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "", "iso", "iso8601", "rfc3339":
		return t.Format(time.RFC3339), nil
	case "rfc1123", "http":
		return t.Format(time.RFC1123), nil
	case "rfc2822", "rfc822", "email":
		return t.Format(time.RFC1123Z), nil
	case "unix", "epoch", "timestamp":
		return strconv.FormatInt(t.Unix(), 10), nil
	case "human", "long":
		return t.Format("Monday, 2 January 2006, 15:04 MST"), nil
	case "date":
		return t.Format(time.DateOnly), nil
	case "time":
		return t.Format(time.TimeOnly), nil
	case "12h":
		return t.Format("3:04 PM"), nil
	case "24h":
		return t.Format("15:04"), nil
	}
	if strings.Contains(format, "%") {
		return clockStrftime(t, format), nil
	}
	return "", fmt.Errorf("unknown format %q: use iso, rfc1123, rfc2822, unix, human, date, time, 12h, 24h or a clockStrftime pattern such as \"%%Y-%%m-%%d %%H:%%M\"", format)
}

func handleCurrentTime(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	loc, err := tzResolve(w, c.ArgString("timezone"))
	if err != nil {
		return nil, tzError(err)
	}
	t := c.Now.In(loc)
	formatted, err := clockFormat(t, c.ArgString("format"))
	if err != nil {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"error": err.Error()}}
	}
	abbr, off := t.Zone()
	return map[string]any{
		"timezone":       tzName(loc, t),
		"abbreviation":   abbr,
		"utc_offset":     tzOffsetString(off, false),
		"is_dst":         t.IsDST(),
		"datetime":       t.Format(time.RFC3339),
		"formatted":      formatted,
		"date":           t.Format(time.DateOnly),
		"time":           t.Format(time.TimeOnly),
		"day_of_week":    t.Weekday().String(),
		"unix_timestamp": t.Unix(),
	}, nil
}

func handleTimezoneInfo(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	tz := c.ArgString("timezone")
	if tz == "" {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"error": "timezone is required, e.g. Europe/Lisbon"}}
	}
	loc, err := tzResolve(w, tz)
	if err != nil {
		return nil, tzError(err)
	}
	return tzFacts(loc, c.Now), nil
}

func handleTimezoneByLocation(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	lat, okLat := c.ArgFloat("lat")
	lon, okLon := c.ArgFloat("lon")
	if !okLat || !okLon || lat < -90 || lat > 90 || lon < -180 || lon > 180 {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"error": fmt.Sprintf("invalid coordinates lat=%q lon=%q: lat must be a number between -90 and 90 and lon between -180 and 180", c.ArgString("lat"), c.ArgString("lon"))}}
	}
	city, dist := w.NearestCity(lat, lon)
	var facts map[string]any
	if city == nil || dist > 1000 {
		// Far from any city (at sea): the nautical zone of the longitude.
		h := int(math.Round(lon / 15))
		name := "Etc/GMT"
		if h != 0 {
			name = fmt.Sprintf("Etc/GMT%+d", -h) // Etc zones count west as positive
		}
		loc, err := tzLoad(name)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %w", name, err)
		}
		facts = tzFacts(loc, c.Now)
		facts["nearest_city"] = nil
	} else {
		facts = tzFacts(city.Location(), c.Now)
		facts["nearest_city"] = map[string]any{
			"name":         city.Name,
			"country_code": city.Country,
			"lat":          city.Lat,
			"lon":          city.Lon,
			"distance_km":  math.Round(dist*10) / 10,
		}
	}
	facts["lat"] = lat
	facts["lon"] = lon
	return facts, nil
}
