package world

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// The basic scenario's world part: the user, the IP-to-location table, the
// translation phrasebook and the web corpus. Landmarks come from the travel
// slice's attractions.json and news from news.json when those files exist;
// they are read here on their own terms so this part does not depend on
// how other stand-ins index them.

// Basic is the loaded basic part.
type Basic struct {
	User       *User
	IPv4       []*IPRange // sorted by prefix start
	IPv6       []*IPRange
	Phrases    *Phrasebook
	pages      []*WebDoc
	videos     []*WebDoc
	news       []*WebDoc // newest first
	PageIndex  *WebIndex
	VideoIndex *WebIndex
	NewsIndex  *WebIndex
	Landmarks  []*Landmark
}

// User is fixtures/world/user.json.
type User struct {
	UserID      string          `json:"user_id"`
	Username    string          `json:"username"`
	Name        string          `json:"name"`
	FirstName   string          `json:"first_name"`
	LastName    string          `json:"last_name"`
	Email       string          `json:"email"`
	Phone       string          `json:"phone"`
	BirthDate   string          `json:"birth_date"`
	Occupation  string          `json:"occupation"`
	HomeCityID  string          `json:"home_city_id"`
	Address     json.RawMessage `json:"address"`
	Language    string          `json:"language"`
	Languages   []string        `json:"languages"`
	Currency    string          `json:"currency"`
	TimeZone    string          `json:"timezone"`
	MemberSince string          `json:"member_since"`
	Preferences json.RawMessage `json:"preferences"`
	Location    struct {
		CityID     string  `json:"city_id"`
		IP         string  `json:"ip"`
		Source     string  `json:"source"`
		AccuracyKm float64 `json:"accuracy_km"`
	} `json:"location"`

	Home, Here    *City          `json:"-"`
	AddressFields map[string]any `json:"-"`
	PrefFields    map[string]any `json:"-"`
}

// IPRange is one row of ip_ranges.json.
type IPRange struct {
	CIDR   string `json:"cidr"`
	CityID string `json:"city_id"`
	ISP    string `json:"isp"`
	Org    string `json:"org"`
	ASN    string `json:"asn"`

	Prefix netip.Prefix `json:"-"`
	City   *City        `json:"-"`
}

// WebDoc is a page, a video or a news article of the search corpus.
type WebDoc struct {
	Title     string `json:"title"`
	URL       string `json:"url"`
	Snippet   string `json:"snippet"`
	Lang      string `json:"lang"`
	Date      string `json:"date"`
	Channel   string `json:"channel"`
	Duration  string `json:"duration"`
	Views     int64  `json:"views"`
	Published string `json:"published"`
	Source    string `json:"-"`
	Thumbnail string `json:"-"`

	tokens map[string]float64
	vocab  []string // the keys of tokens, sorted, for prefix matches
}

// Index computes the document's search tokens.
func (d *WebDoc) Index() {
	d.tokens = webDocTokens(d.Title, d.Snippet)
	d.vocab = make([]string, 0, len(d.tokens))
	for t := range d.tokens {
		d.vocab = append(d.vocab, t)
	}
	sort.Strings(d.vocab)
}

// Landmark is the part of an attraction geocoding needs.
type Landmark struct {
	Name        string  `json:"name"`
	CityID      string  `json:"city_id"`
	Lat         float64 `json:"lat"`
	Lon         float64 `json:"lon"`
	Subcategory string  `json:"subcategory"`
	Address     string  `json:"address"`
	LocationID  string  `json:"location_id"`

	City *City  `json:"-"`
	Key  string `json:"-"`
}

func loadBasic(fsys fs.FS, w *World) (*Basic, error) {
	b := &Basic{}
	if err := b.loadUser(fsys, w); err != nil {
		return nil, err
	}
	if err := b.loadIPRanges(fsys, w); err != nil {
		return nil, err
	}
	pb, err := loadPhrasebook(fsys)
	if err != nil {
		return nil, err
	}
	b.Phrases = pb
	if err := b.loadLandmarks(fsys, w); err != nil {
		return nil, err
	}
	if err := b.loadWeb(fsys, w); err != nil {
		return nil, err
	}
	if err := b.loadNews(fsys); err != nil {
		return nil, err
	}
	if ip, err := netip.ParseAddr(b.User.Location.IP); err != nil {
		return nil, &WorldError{File: "user.json", Err: fmt.Errorf("location.ip: %w", err)}
	} else if r := b.LookupIP(ip); r == nil || r.City != b.User.Here {
		return nil, &WorldError{File: "user.json", Err: fmt.Errorf("location.ip %s is not in a range of ip_ranges.json for %s", ip, b.User.Location.CityID)}
	}
	return b, nil
}

func (b *Basic) loadUser(fsys fs.FS, w *World) error {
	var u User
	if err := readJSON(fsys, "user.json", &u); err != nil {
		return err
	}
	var ok bool
	if u.Home, ok = w.CityByID(u.HomeCityID); !ok {
		return &WorldError{File: "user.json", Err: fmt.Errorf("home_city_id %q is not a city", u.HomeCityID)}
	}
	if u.Here, ok = w.CityByID(u.Location.CityID); !ok {
		return &WorldError{File: "user.json", Err: fmt.Errorf("location.city_id %q is not a city", u.Location.CityID)}
	}
	if u.TimeZone != u.Home.TimeZone {
		return &WorldError{File: "user.json", Err: fmt.Errorf("timezone %q differs from the home city's %q", u.TimeZone, u.Home.TimeZone)}
	}
	if _, ok := w.Currency(u.Currency); !ok {
		return &WorldError{File: "user.json", Err: fmt.Errorf("currency %q is unknown", u.Currency)}
	}
	if err := json.Unmarshal(u.Address, &u.AddressFields); err != nil {
		return &WorldError{File: "user.json", Err: fmt.Errorf("address: %w", err)}
	}
	if err := json.Unmarshal(u.Preferences, &u.PrefFields); err != nil {
		return &WorldError{File: "user.json", Err: fmt.Errorf("preferences: %w", err)}
	}
	b.User = &u
	return nil
}

func (b *Basic) loadIPRanges(fsys fs.FS, w *World) error {
	var f struct {
		Comment string     `json:"_comment"`
		Ranges  []*IPRange `json:"ranges"`
	}
	if err := readJSON(fsys, "ip_ranges.json", &f); err != nil {
		return err
	}
	for i, r := range f.Ranges {
		p, err := netip.ParsePrefix(r.CIDR)
		if err != nil {
			return &WorldError{File: "ip_ranges.json", Err: fmt.Errorf("ranges[%d]: %w", i, err)}
		}
		r.Prefix = p.Masked()
		c, ok := w.CityByID(r.CityID)
		if !ok {
			return &WorldError{File: "ip_ranges.json", Err: fmt.Errorf("ranges[%d]: city_id %q is not a city", i, r.CityID)}
		}
		r.City = c
		if p.Addr().Is4() {
			b.IPv4 = append(b.IPv4, r)
		} else {
			b.IPv6 = append(b.IPv6, r)
		}
	}
	for _, list := range [][]*IPRange{b.IPv4, b.IPv6} {
		sort.Slice(list, func(i, j int) bool { return list[i].Prefix.Addr().Less(list[j].Prefix.Addr()) })
		for i := 1; i < len(list); i++ {
			if list[i-1].Prefix.Overlaps(list[i].Prefix) {
				return &WorldError{File: "ip_ranges.json", Err: fmt.Errorf("%s overlaps %s", list[i-1].CIDR, list[i].CIDR)}
			}
		}
	}
	return nil
}

// LookupIP finds the range holding ip, or nil.
func (b *Basic) LookupIP(ip netip.Addr) *IPRange {
	list := b.IPv4
	if ip.Is6() {
		list = b.IPv6
	}
	// The last range starting at or before ip is the only candidate,
	// since ranges do not overlap.
	i := sort.Search(len(list), func(i int) bool { return ip.Less(list[i].Prefix.Addr()) })
	if i > 0 && list[i-1].Prefix.Contains(ip) {
		return list[i-1]
	}
	return nil
}

func (b *Basic) loadLandmarks(fsys fs.FS, w *World) error {
	raw, err := fs.ReadFile(fsys, "attractions.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil // landmarks are optional: geocoding then knows cities only
	}
	if err != nil {
		return &WorldError{File: "attractions.json", Err: err}
	}
	var f struct {
		Attractions []*Landmark `json:"attractions"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return &WorldError{File: "attractions.json", Err: err}
	}
	for _, l := range f.Attractions {
		c, ok := w.CityByID(l.CityID)
		if !ok || l.Name == "" {
			continue
		}
		l.City = c
		l.Key = Fold(l.Name)
		b.Landmarks = append(b.Landmarks, l)
	}
	sort.SliceStable(b.Landmarks, func(i, j int) bool { return b.Landmarks[i].Key < b.Landmarks[j].Key })
	return nil
}

func (b *Basic) loadWeb(fsys fs.FS, w *World) error {
	var f struct {
		Comment string    `json:"_comment"`
		Pages   []*WebDoc `json:"pages"`
		Videos  []*WebDoc `json:"videos"`
	}
	if err := readJSON(fsys, "web_pages.json", &f); err != nil {
		return err
	}
	b.pages = append(f.Pages, cityPages(w)...)
	for _, l := range b.Landmarks {
		b.pages = append(b.pages, &WebDoc{
			Title:   fmt.Sprintf("%s (%s) - All You Need to Know BEFORE You Go", l.Name, l.City.Name),
			URL:     fmt.Sprintf("https://www.tripadvisor.com/Attraction_Review-g%s-%s.html", l.LocationID, strings.ReplaceAll(l.Name, " ", "_")),
			Snippet: fmt.Sprintf("%s is one of the top %s in %s. Address: %s.", l.Name, strings.ToLower(Or(l.Subcategory, "attractions")), l.City.Name, l.Address),
			Lang:    "en",
		})
	}
	b.videos = f.Videos
	// The pages and videos are only searched through these indexes, which
	// index them on the first search: a third of the part's load otherwise.
	b.PageIndex = &WebIndex{docs: b.pages, own: true}
	b.VideoIndex = &WebIndex{docs: b.videos, own: true}
	return nil
}

// cityPages writes an encyclopedia page and a travel-guide page for every
// city of the core world from its facts, so search agrees with the world.
func cityPages(w *World) []*WebDoc {
	var out []*WebDoc
	for _, c := range w.Cities() {
		country, _ := w.Country(c.Country)
		cname := c.Country
		role := "a city"
		if country != nil {
			cname = country.Name
			if Fold(country.Capital) == Fold(c.Name) {
				role = "the capital and a major city"
			}
		}
		slug := strings.ReplaceAll(c.ASCIIName, " ", "_")
		airport := ""
		if len(c.Airports) > 0 {
			airport = fmt.Sprintf(" It is served by %s airport.", strings.Join(c.Airports, " and "))
		}
		out = append(out,
			&WebDoc{
				Title:   c.Name + " - Wikipedia",
				URL:     "https://en.wikipedia.org/wiki/" + slug,
				Snippet: fmt.Sprintf("%s is %s of %s, in %s, with a population of about %s. It lies %d m above sea level in the %s time zone.%s", c.Name, role, cname, c.Region, Thousands(c.Population), c.Elevation, c.TimeZone, airport),
				Lang:    "en",
			},
			&WebDoc{
				Title:   fmt.Sprintf("%s travel guide - Wikivoyage", c.Name),
				URL:     "https://en.wikivoyage.org/wiki/" + slug,
				Snippet: fmt.Sprintf("Open source travel guide to %s, %s: get in, get around, see, do, eat, drink and sleep - neighbourhoods, sights, transport and where to stay.", c.Name, cname),
				Lang:    "en",
			})
	}
	return out
}

// Page returns the web page at url, if the world's web index has it.
func (b *Basic) Page(url string) (*WebDoc, bool) {
	for _, d := range b.pages {
		if d.URL == url {
			return d, true
		}
	}
	return nil, false
}

// Thousands formats n with comma thousands separators, as English web pages do.
func Thousands(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Or returns s, or def when s is empty.
func Or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (b *Basic) loadNews(fsys fs.FS) error {
	raw, err := fs.ReadFile(fsys, "news.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &WorldError{File: "news.json", Err: err}
	}
	var f struct {
		Articles []struct {
			Title     string `json:"title"`
			Link      string `json:"link"`
			Snippet   string `json:"snippet"`
			Published string `json:"published_datetime_utc"`
			Source    string `json:"source_name"`
			Thumbnail string `json:"thumbnail_url"`
			Lang      string `json:"lang"`
		} `json:"articles"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return &WorldError{File: "news.json", Err: err}
	}
	for _, a := range f.Articles {
		d := &WebDoc{Title: a.Title, URL: a.Link, Snippet: a.Snippet, Published: a.Published, Source: a.Source, Thumbnail: a.Thumbnail, Lang: Or(a.Lang, "en")}
		d.Index()
		b.news = append(b.news, d)
	}
	// Newest first, ties by URL, whatever the file's order.
	sort.SliceStable(b.news, func(i, j int) bool {
		if b.news[i].Published != b.news[j].Published {
			return b.news[i].Published > b.news[j].Published
		}
		return b.news[i].URL < b.news[j].URL
	})
	b.NewsIndex = newWebIndex(b.news)
	return nil
}

// WebTokens splits text into lowercase, accent-free word tokens.
func WebTokens(s string) []string { return strings.Fields(Fold(s)) }

// WebStopWords are the English words web search ignores.
var WebStopWords = map[string]bool{"the": true, "a": true, "an": true, "of": true, "in": true, "and": true, "to": true, "for": true, "is": true, "on": true, "what": true, "how": true, "with": true, "at": true, "by": true}

// webDocTokens weighs a document's tokens: title words count twice.
func webDocTokens(title, snippet string) map[string]float64 {
	m := map[string]float64{}
	for _, t := range WebTokens(title) {
		m[t] += 2
	}
	for _, t := range WebTokens(snippet) {
		m[t]++
	}
	return m
}

// WebIndex is an inverted index over a corpus for token-match ranking.
type WebIndex struct {
	docs []*WebDoc
	// own says the documents are this index's alone, so build indexes each
	// one's words (WebDoc.Index) first.
	own   bool
	once  sync.Once
	post  map[string][]webPosting
	vocab []string // sorted keys of post
}

type webPosting struct {
	doc    int
	weight float64
}

func newWebIndex(docs []*WebDoc) *WebIndex {
	x := &WebIndex{docs: docs}
	x.once.Do(x.build)
	return x
}

// build fills the postings, once, before the first search.
func (x *WebIndex) build() {
	x.post = map[string][]webPosting{}
	for i, d := range x.docs {
		if x.own {
			d.Index()
		}
		for _, t := range d.vocab {
			x.post[t] = append(x.post[t], webPosting{i, d.tokens[t]})
		}
	}
	for t := range x.post {
		x.vocab = append(x.vocab, t)
	}
	sort.Strings(x.vocab)
}

// RankDocs ranks docs for query with a throwaway index.
func RankDocs(docs []*WebDoc, query string) []*WebDoc {
	return newWebIndex(docs).Rank(query)
}

// Rank orders the corpus by a token-match score for query: each query term
// found adds 1 + its weight in the document (title words weigh 2, snippet
// words 1); a prefix match of at least 4 letters ("recipes" for "recipe"
// and the reverse) is worth half. Documents matching fewer than half of
// the terms are dropped; the score is scaled by the share matched. Ties
// keep corpus order.
func (x *WebIndex) Rank(query string) []*WebDoc {
	x.once.Do(x.build)
	var terms []string
	for _, t := range WebTokens(query) {
		if !WebStopWords[t] {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		return nil
	}
	type hit struct {
		score   float64
		matched int
	}
	hits := map[int]*hit{}
	for _, t := range terms {
		best := map[int]float64{} // doc → this term's contribution
		for _, p := range x.post[t] {
			best[p.doc] = 1 + p.weight
		}
		if len(t) >= 4 {
			prefix := func(tok string) {
				for _, p := range x.post[tok] {
					if v := (1 + p.weight) / 2; v > best[p.doc] {
						best[p.doc] = v
					}
				}
			}
			for i := sort.SearchStrings(x.vocab, t); i < len(x.vocab) && strings.HasPrefix(x.vocab[i], t); i++ {
				if x.vocab[i] != t {
					prefix(x.vocab[i])
				}
			}
			for k := 4; k < len(t); k++ {
				prefix(t[:k])
			}
		}
		for doc, v := range best {
			h := hits[doc]
			if h == nil {
				h = &hit{}
				hits[doc] = h
			}
			h.score += v
			h.matched++
		}
	}
	type ranked struct {
		doc   int
		score float64
	}
	var rs []ranked
	for doc, h := range hits {
		if h.matched*2 >= len(terms) {
			rs = append(rs, ranked{doc, h.score * float64(h.matched) / float64(len(terms))})
		}
	}
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].score != rs[j].score {
			return rs[i].score > rs[j].score
		}
		return rs[i].doc < rs[j].doc
	})
	out := make([]*WebDoc, len(rs))
	for i, r := range rs {
		out[i] = x.docs[r.doc]
	}
	return out
}

// Phrasebook indexes phrasebook.json: for every language, normalised
// phrase → entry.
type Phrasebook struct {
	Langs    []string
	Entries  []map[string]string
	Index    map[string]map[string]int
	MaxWords map[string]int
}

func loadPhrasebook(fsys fs.FS) (*Phrasebook, error) {
	var f struct {
		Comment   string              `json:"_comment"`
		Languages []string            `json:"languages"`
		Entries   []map[string]string `json:"entries"`
	}
	if err := readJSON(fsys, "phrasebook.json", &f); err != nil {
		return nil, err
	}
	pb := &Phrasebook{Langs: f.Languages, Entries: f.Entries, Index: map[string]map[string]int{}, MaxWords: map[string]int{}}
	known := map[string]bool{}
	for _, l := range f.Languages {
		known[l] = true
		pb.Index[l] = map[string]int{}
	}
	for i, e := range f.Entries {
		if e["en"] == "" {
			return nil, &WorldError{File: "phrasebook.json", Err: fmt.Errorf("entries[%d] has no English text", i)}
		}
		for l, text := range e {
			if !known[l] {
				return nil, &WorldError{File: "phrasebook.json", Err: fmt.Errorf("entries[%d]: language %q is not listed in languages", i, l)}
			}
			toks := PhraseTokens(text, l)
			key := strings.Join(toks, " ")
			if key == "" {
				continue
			}
			if _, dup := pb.Index[l][key]; !dup { // the first entry wins: "mañana" is "tomorrow"
				pb.Index[l][key] = i
			}
			pb.MaxWords[l] = max(pb.MaxWords[l], len(toks))
		}
	}
	return pb, nil
}

// Unspaced languages are written without spaces between words; they are
// matched character by character.
func Unspaced(lang string) bool { return lang == "ja" || lang == "zh" }

// PhraseTokens normalises text for matching: lowercase words, or single
// characters in unspaced languages, punctuation dropped.
func PhraseTokens(text, lang string) []string {
	text = strings.ToLower(text)
	if Unspaced(lang) {
		var out []string
		for _, r := range text {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				out = append(out, string(r))
			}
		}
		return out
	}
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '\'' || r == '’' || r == '-')
	})
}
