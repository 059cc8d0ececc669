package basic

import (
	"context"
	"hash/fnv"
	"net/netip"
	"strings"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
)

// Stand-in for ip_geolocation (ip-geolocation-ipwhois-io.p.rapidapi.com):
// ipwhois.io's JSON answer from the world's IP-to-city table.

// ipReservedPrefixes are special-purpose ranges (RFC 6890 and friends) that
// netip's predicates do not cover; ipwhois answers "reserved range" for them.
var ipReservedPrefixes = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "255.255.255.255/32", "2001:db8::/32", "64:ff9b::/96", "100::/64", "2001::/23"} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

func ipReserved(ip netip.Addr) bool {
	if ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() {
		return true
	}
	for _, p := range ipReservedPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

var ipContinentCodes = map[string]string{"Europe": "EU", "Asia": "AS", "Africa": "AF", "Oceania": "OC", "Antarctica": "AN"}

func handleClientIP(_ context.Context, w *world.World, _ *standin.Call) (any, error) {
	return map[string]any{"ip": w.Basic.User.Location.IP}, nil
}

func handleLookupIP(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	b := w.Basic
	raw := c.ArgString("ip")
	if raw == "" {
		raw = b.User.Location.IP // ipwhois looks up the caller's address when none is given
	}
	ip, err := netip.ParseAddr(raw)
	if err != nil || ip.Zone() != "" {
		return map[string]any{"ip": raw, "success": false, "message": "Invalid IP address"}, nil
	}
	ip = ip.Unmap()
	if ipReserved(ip) {
		return map[string]any{"ip": ip.String(), "success": false, "message": "reserved range"}, nil
	}
	r := b.LookupIP(ip)
	if r == nil {
		r = fallbackRange(b, ip)
	}
	city := r.City
	country, _ := w.Country(city.Country)
	typ := "IPv4"
	if ip.Is6() {
		typ = "IPv6"
	}
	t := c.Now.In(city.Location())
	abbr, off := t.Zone()
	std := tzStandardOffset(city.Location(), t)
	continent := ipContinentCodes[country.Region]
	continentName := country.Region
	if country.Region == "Americas" {
		continent, continentName = "NA", "North America"
		if country.Subregion == "South America" {
			continent, continentName = "SA", "South America"
		}
	}
	out := map[string]any{
		"ip":                 ip.String(),
		"success":            true,
		"type":               typ,
		"continent":          continentName,
		"continent_code":     continent,
		"country":            country.Name,
		"country_code":       country.Alpha2,
		"country_flag":       "https://cdn.ipwhois.io/flags/" + strings.ToLower(country.Alpha2) + ".svg",
		"country_capital":    country.Capital,
		"country_phone":      country.CallingCode,
		"region":             city.Region,
		"city":               city.Name,
		"latitude":           city.Lat,
		"longitude":          city.Lon,
		"asn":                r.ASN,
		"org":                r.Org,
		"isp":                r.ISP,
		"timezone":           city.TimeZone,
		"timezone_name":      world.Or(tzLongNames[abbr], abbr),
		"timezone_dstOffset": off - std,
		"timezone_gmtOffset": off,
		"timezone_gmt":       "GMT " + tzOffsetString(off, false),
	}
	if cur, ok := w.Currency(country.Currency); ok {
		out["currency"] = cur.Name
		out["currency_code"] = cur.Code
		out["currency_symbol"] = cur.Symbol
		out["currency_rates"] = cur.PerUSD
	}
	return out, nil
}

// fallbackRange places a public address outside the table: every address
// of the same /16 (IPv4) or /32 (IPv6) lands on the same known range, so
// answers are stable and look like a real network's.
func fallbackRange(b *world.Basic, ip netip.Addr) *world.IPRange {
	list := b.IPv4
	bits := 16
	if ip.Is6() {
		list, bits = b.IPv6, 32
	}
	p, _ := ip.Prefix(bits)
	h := fnv.New32a()
	h.Write(p.Addr().AsSlice())
	return list[int(h.Sum32()%uint32(len(list)))]
}
