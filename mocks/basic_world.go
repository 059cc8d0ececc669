package mocks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"sort"
	"strings"
)

// The basic scenario's world part: the user, the IP-to-location table, the
// translation trPhrasebook and the web corpus. Landmarks come from the travel
// slice's attractions.json and news from news.json when those files exist;
// they are read here on their own terms so this part does not depend on
// how other stand-ins index them.

// basicWorld is the loaded basic part.
type basicWorld struct {
	user       *basicUser
	ipv4       []*basicIPRange // sorted by prefix start
	ipv6       []*basicIPRange
	phrases    *trPhrasebook
	pages      []*basicDoc
	videos     []*basicDoc
	news       []*basicDoc // newest first
	pageIndex  *basicIndex
	videoIndex *basicIndex
	newsIndex  *basicIndex
	landmarks  []*basicLandmark
}

// basicUser is fixtures/world/user.json.
type basicUser struct {
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

	home, here *City
	address    map[string]any
	prefs      map[string]any
}

// basicIPRange is one row of ip_ranges.json.
type basicIPRange struct {
	CIDR   string `json:"cidr"`
	CityID string `json:"city_id"`
	ISP    string `json:"isp"`
	Org    string `json:"org"`
	ASN    string `json:"asn"`

	prefix netip.Prefix
	city   *City
}

// basicDoc is a page, a video or a news article of the search corpus.
type basicDoc struct {
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

// index computes the document's search tokens.
func (d *basicDoc) index() {
	d.tokens = basicDocTokens(d.Title, d.Snippet)
	d.vocab = make([]string, 0, len(d.tokens))
	for t := range d.tokens {
		d.vocab = append(d.vocab, t)
	}
	sort.Strings(d.vocab)
}

// basicLandmark is the part of an attraction geocoding needs.
type basicLandmark struct {
	Name        string  `json:"name"`
	CityID      string  `json:"city_id"`
	Lat         float64 `json:"lat"`
	Lon         float64 `json:"lon"`
	Subcategory string  `json:"subcategory"`
	Address     string  `json:"address"`
	LocationID  string  `json:"location_id"`

	city *City
	key  string
}

func loadBasic(fsys fs.FS, w *World) (*basicWorld, error) {
	b := &basicWorld{}
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
	b.phrases = pb
	if err := b.loadLandmarks(fsys, w); err != nil {
		return nil, err
	}
	if err := b.loadWeb(fsys, w); err != nil {
		return nil, err
	}
	if err := b.loadNews(fsys); err != nil {
		return nil, err
	}
	if ip, err := netip.ParseAddr(b.user.Location.IP); err != nil {
		return nil, &WorldError{File: "user.json", Err: fmt.Errorf("location.ip: %w", err)}
	} else if r := b.lookupIP(ip); r == nil || r.city != b.user.here {
		return nil, &WorldError{File: "user.json", Err: fmt.Errorf("location.ip %s is not in a range of ip_ranges.json for %s", ip, b.user.Location.CityID)}
	}
	return b, nil
}

func (b *basicWorld) loadUser(fsys fs.FS, w *World) error {
	var u basicUser
	if err := readJSON(fsys, "user.json", &u); err != nil {
		return err
	}
	var ok bool
	if u.home, ok = w.CityByID(u.HomeCityID); !ok {
		return &WorldError{File: "user.json", Err: fmt.Errorf("home_city_id %q is not a city", u.HomeCityID)}
	}
	if u.here, ok = w.CityByID(u.Location.CityID); !ok {
		return &WorldError{File: "user.json", Err: fmt.Errorf("location.city_id %q is not a city", u.Location.CityID)}
	}
	if u.TimeZone != u.home.TimeZone {
		return &WorldError{File: "user.json", Err: fmt.Errorf("timezone %q differs from the home city's %q", u.TimeZone, u.home.TimeZone)}
	}
	if _, ok := w.Currency(u.Currency); !ok {
		return &WorldError{File: "user.json", Err: fmt.Errorf("currency %q is unknown", u.Currency)}
	}
	if err := json.Unmarshal(u.Address, &u.address); err != nil {
		return &WorldError{File: "user.json", Err: fmt.Errorf("address: %w", err)}
	}
	if err := json.Unmarshal(u.Preferences, &u.prefs); err != nil {
		return &WorldError{File: "user.json", Err: fmt.Errorf("preferences: %w", err)}
	}
	b.user = &u
	return nil
}

func (b *basicWorld) loadIPRanges(fsys fs.FS, w *World) error {
	var f struct {
		Comment string          `json:"_comment"`
		Ranges  []*basicIPRange `json:"ranges"`
	}
	if err := readJSON(fsys, "ip_ranges.json", &f); err != nil {
		return err
	}
	for i, r := range f.Ranges {
		p, err := netip.ParsePrefix(r.CIDR)
		if err != nil {
			return &WorldError{File: "ip_ranges.json", Err: fmt.Errorf("ranges[%d]: %w", i, err)}
		}
		r.prefix = p.Masked()
		c, ok := w.CityByID(r.CityID)
		if !ok {
			return &WorldError{File: "ip_ranges.json", Err: fmt.Errorf("ranges[%d]: city_id %q is not a city", i, r.CityID)}
		}
		r.city = c
		if p.Addr().Is4() {
			b.ipv4 = append(b.ipv4, r)
		} else {
			b.ipv6 = append(b.ipv6, r)
		}
	}
	for _, list := range [][]*basicIPRange{b.ipv4, b.ipv6} {
		sort.Slice(list, func(i, j int) bool { return list[i].prefix.Addr().Less(list[j].prefix.Addr()) })
		for i := 1; i < len(list); i++ {
			if list[i-1].prefix.Overlaps(list[i].prefix) {
				return &WorldError{File: "ip_ranges.json", Err: fmt.Errorf("%s overlaps %s", list[i-1].CIDR, list[i].CIDR)}
			}
		}
	}
	return nil
}

// lookupIP finds the range holding ip, or nil.
func (b *basicWorld) lookupIP(ip netip.Addr) *basicIPRange {
	list := b.ipv4
	if ip.Is6() {
		list = b.ipv6
	}
	// The last range starting at or before ip is the only candidate,
	// since ranges do not overlap.
	i := sort.Search(len(list), func(i int) bool { return ip.Less(list[i].prefix.Addr()) })
	if i > 0 && list[i-1].prefix.Contains(ip) {
		return list[i-1]
	}
	return nil
}

func (b *basicWorld) loadLandmarks(fsys fs.FS, w *World) error {
	raw, err := fs.ReadFile(fsys, "attractions.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil // landmarks are optional: geocoding then knows cities only
	}
	if err != nil {
		return &WorldError{File: "attractions.json", Err: err}
	}
	var f struct {
		Attractions []*basicLandmark `json:"attractions"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return &WorldError{File: "attractions.json", Err: err}
	}
	for _, l := range f.Attractions {
		c, ok := w.CityByID(l.CityID)
		if !ok || l.Name == "" {
			continue
		}
		l.city = c
		l.key = fold(l.Name)
		b.landmarks = append(b.landmarks, l)
	}
	sort.SliceStable(b.landmarks, func(i, j int) bool { return b.landmarks[i].key < b.landmarks[j].key })
	return nil
}

func (b *basicWorld) loadWeb(fsys fs.FS, w *World) error {
	var f struct {
		Comment string      `json:"_comment"`
		Pages   []*basicDoc `json:"pages"`
		Videos  []*basicDoc `json:"videos"`
	}
	if err := readJSON(fsys, "web_pages.json", &f); err != nil {
		return err
	}
	b.pages = append(f.Pages, basicCityPages(w)...)
	for _, l := range b.landmarks {
		b.pages = append(b.pages, &basicDoc{
			Title:   fmt.Sprintf("%s (%s) - All You Need to Know BEFORE You Go", l.Name, l.city.Name),
			URL:     fmt.Sprintf("https://www.tripadvisor.com/Attraction_Review-g%s-%s.html", l.LocationID, strings.ReplaceAll(l.Name, " ", "_")),
			Snippet: fmt.Sprintf("%s is one of the top %s in %s. Address: %s.", l.Name, strings.ToLower(basicOr(l.Subcategory, "attractions")), l.city.Name, l.Address),
			Lang:    "en",
		})
	}
	b.videos = f.Videos
	for _, d := range append(append([]*basicDoc{}, b.pages...), b.videos...) {
		d.index()
	}
	b.pageIndex = newBasicIndex(b.pages)
	b.videoIndex = newBasicIndex(b.videos)
	return nil
}

// basicCityPages writes an encyclopedia page and a travel-guide page for every
// city of the core world from its facts, so search agrees with the world.
func basicCityPages(w *World) []*basicDoc {
	var out []*basicDoc
	for _, c := range w.Cities() {
		country, _ := w.Country(c.Country)
		cname := c.Country
		role := "a city"
		if country != nil {
			cname = country.Name
			if fold(country.Capital) == fold(c.Name) {
				role = "the capital and a major city"
			}
		}
		slug := strings.ReplaceAll(c.ASCIIName, " ", "_")
		airport := ""
		if len(c.Airports) > 0 {
			airport = fmt.Sprintf(" It is served by %s airport.", strings.Join(c.Airports, " and "))
		}
		out = append(out,
			&basicDoc{
				Title:   c.Name + " - Wikipedia",
				URL:     "https://en.wikipedia.org/wiki/" + slug,
				Snippet: fmt.Sprintf("%s is %s of %s, in %s, with a population of about %s. It lies %d m above sea level in the %s time zone.%s", c.Name, role, cname, c.Region, basicThousands(c.Population), c.Elevation, c.TimeZone, airport),
				Lang:    "en",
			},
			&basicDoc{
				Title:   fmt.Sprintf("%s travel guide - Wikivoyage", c.Name),
				URL:     "https://en.wikivoyage.org/wiki/" + slug,
				Snippet: fmt.Sprintf("Open source travel guide to %s, %s: get in, get around, see, do, eat, drink and sleep - neighbourhoods, sights, transport and where to stay.", c.Name, cname),
				Lang:    "en",
			})
	}
	return out
}

func basicThousands(n int64) string {
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

func basicOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (b *basicWorld) loadNews(fsys fs.FS) error {
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
		d := &basicDoc{Title: a.Title, URL: a.Link, Snippet: a.Snippet, Published: a.Published, Source: a.Source, Thumbnail: a.Thumbnail, Lang: basicOr(a.Lang, "en")}
		d.index()
		b.news = append(b.news, d)
	}
	// Newest first, ties by URL, whatever the file's order.
	sort.SliceStable(b.news, func(i, j int) bool {
		if b.news[i].Published != b.news[j].Published {
			return b.news[i].Published > b.news[j].Published
		}
		return b.news[i].URL < b.news[j].URL
	})
	b.newsIndex = newBasicIndex(b.news)
	return nil
}

// basicSearchTokens splits text into lowercase, accent-free word tokens.
func basicSearchTokens(s string) []string { return strings.Fields(fold(s)) }

var basicStopWords = map[string]bool{"the": true, "a": true, "an": true, "of": true, "in": true, "and": true, "to": true, "for": true, "is": true, "on": true, "what": true, "how": true, "with": true, "at": true, "by": true}

// basicDocTokens weighs a document's tokens: title words count twice.
func basicDocTokens(title, snippet string) map[string]float64 {
	m := map[string]float64{}
	for _, t := range basicSearchTokens(title) {
		m[t] += 2
	}
	for _, t := range basicSearchTokens(snippet) {
		m[t]++
	}
	return m
}

// basicIndex is an inverted index over a corpus for token-match ranking.
type basicIndex struct {
	docs  []*basicDoc
	post  map[string][]basicPosting
	vocab []string // sorted keys of post
}

type basicPosting struct {
	doc    int
	weight float64
}

func newBasicIndex(docs []*basicDoc) *basicIndex {
	x := &basicIndex{docs: docs, post: map[string][]basicPosting{}}
	for i, d := range docs {
		for _, t := range d.vocab {
			x.post[t] = append(x.post[t], basicPosting{i, d.tokens[t]})
		}
	}
	for t := range x.post {
		x.vocab = append(x.vocab, t)
	}
	sort.Strings(x.vocab)
	return x
}

// basicRankDocs ranks docs for query with a throwaway index.
func basicRankDocs(docs []*basicDoc, query string) []*basicDoc {
	return newBasicIndex(docs).rank(query)
}

// rank orders the corpus by a token-match score for query: each query term
// found adds 1 + its weight in the document (title words weigh 2, snippet
// words 1); a prefix match of at least 4 letters ("recipes" for "recipe"
// and the reverse) is worth half. Documents matching fewer than half of
// the terms are dropped; the score is scaled by the share matched. Ties
// keep corpus order.
func (x *basicIndex) rank(query string) []*basicDoc {
	var terms []string
	for _, t := range basicSearchTokens(query) {
		if !basicStopWords[t] {
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
	out := make([]*basicDoc, len(rs))
	for i, r := range rs {
		out[i] = x.docs[r.doc]
	}
	return out
}
