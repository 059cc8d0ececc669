package shape

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/toolset"
)

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"playerId":            {"player", "id"},
		"Get Player Stats":    {"get", "player", "stats"},
		"HTTPStatusCode":      {"http", "status", "code"},
		"search_hotels-v2":    {"search", "hotels", "v2"},
		"Reading Info (Beta)": {"reading", "info", "beta"},
		"":                    nil,
	} {
		require.Equal(t, want, Words(in), in)
	}
	for plural, singular := range map[string]string{"players": "player", "cities": "city", "matches": "match", "news": "news", "status": "status", "people": "person", "boxes": "box", "analyses": "analysis"} {
		require.Equal(t, singular, Singular(plural), plural)
	}
	for singular, plural := range map[string]string{"player": "players", "city": "cities", "match": "matches", "person": "people", "day": "days"} {
		require.Equal(t, plural, Plural(singular), singular)
	}
	require.Equal(t, "checkId", Join(true, "check", "id"))
	require.Equal(t, "check_id", Join(false, "check", "id"))
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		key, entity, typ string
		want             Kind
	}{
		{"id", "", "", ID},
		{"playerId", "", "", ID},
		{"player_id", "", "integer", ID},
		{"uuid", "", "", UUID},
		{"paid", "", "boolean", Bool},
		{"valid", "", "", Bool},
		{"is_active", "", "", Bool},
		{"name", "player", "", PersonName},
		{"name", "team", "", Name},
		{"author_name", "", "", PersonName},
		{"home_team", "", "", Name},
		{"first_name", "", "", FirstName},
		{"email_address", "", "", Email},
		{"ip_address", "", "", IP},
		{"street_address", "", "", Address},
		{"city", "", "", City},
		{"country_code", "", "", CountryCode},
		{"nationality", "", "", Country},
		{"lat", "", "", Lat},
		{"longitude", "", "", Lon},
		{"price", "", "", Price},
		{"total_price", "", "", Price},
		{"exchange_rate", "", "", Rate},
		{"change_percent", "", "", Percent},
		{"rating", "", "", Rating},
		{"review_count", "", "", Count},
		{"followers", "", "", Count},
		{"created_at", "", "", DateTime},
		{"createdAt", "", "", DateTime},
		{"created_at", "", "integer", Timestamp},
		{"date", "", "", Date},
		{"birth_date", "", "", BirthDate},
		{"year", "", "", Year},
		{"season", "", "integer", Year},
		{"duration_ms", "", "integer", Duration},
		{"url", "", "", URL},
		{"thumbnail_url", "", "", Image},
		{"logo", "", "", Image},
		{"status", "", "", Status},
		{"status", "", "integer", Code},
		{"mime_type", "", "", MIME},
		{"description", "", "", Description},
		{"message", "", "", Message},
		{"genre", "", "", Word},
		{"position", "", "integer", Rank},
		{"position", "player", "string", Word},
		{"temperature", "", "", Temperature},
		{"population", "", "", Population},
		{"currency", "", "", Currency},
		{"timezone", "", "", TimeZone},
		{"language", "", "", Language},
		{"foo", "", "", Text},
		{"foo", "", "integer", Int},
		{"foo", "", "number", Number},
		{"name", "", "integer", Int},
		{"", "", "boolean", Bool},
	} {
		require.Equal(t, tc.want, Classify(tc.key, tc.entity, tc.typ), "%s/%s/%s", tc.key, tc.entity, tc.typ)
	}
}

// TestClassNounsUnique: a noun belongs to one class (a noun in two would
// make ClassOf depend on map order).
func TestClassNounsUnique(t *testing.T) {
	seen := map[string]string{}
	for c, nouns := range classes {
		for _, n := range nouns {
			prev, dup := seen[n]
			require.False(t, dup, "%q is in %s and %s", n, prev, c)
			seen[n] = c
		}
	}
}

func tool(name, category string, apis ...*toolset.API) *toolset.Tool {
	t := &toolset.Tool{Name: name, StandardizedName: Join(false, Words(name)...), Category: category, APIs: apis}
	for _, a := range apis {
		a.Tool = t
		if a.Method == "" {
			a.Method = "GET"
		}
	}
	return t
}

func param(name string, kind toolset.Kind) *toolset.Param {
	return &toolset.Param{Name: name, Kind: kind, Required: true}
}

// firstObject is the first object of a list in t, or t itself.
func firstObject(t any) map[string]any {
	switch x := t.(type) {
	case []any:
		if len(x) > 0 {
			return firstObject(x[0])
		}
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if l, ok := x[k].([]any); ok && len(l) > 0 {
				if m, ok := l[0].(map[string]any); ok {
					return m
				}
			}
		}
		return x
	}
	return nil
}

func leafKind(t *testing.T, v any) Kind {
	t.Helper()
	l, ok := v.(Leaf)
	require.True(t, ok, "want a leaf, got %#v", v)
	return l.Kind
}

func TestInfer(t *testing.T) {
	stats := &toolset.API{Name: "Get Player Stats", Params: []*toolset.Param{param("player_id", toolset.KindString)}}
	search := &toolset.API{Name: "Search Hotels", Params: []*toolset.Param{param("q", toolset.KindString)}}
	convert := &toolset.API{Name: "Convert Currency", Params: []*toolset.Param{param("from", toolset.KindString), param("to", toolset.KindString), param("amount", toolset.KindNumber)}}
	weather := &toolset.API{Name: "Current Weather", Params: []*toolset.Param{param("city", toolset.KindString)}}
	validate := &toolset.API{Name: "Validate Email", Params: []*toolset.Param{param("email", toolset.KindString)}}
	book := &toolset.API{Name: "Get Book By Id", Params: []*toolset.Param{param("id", toolset.KindString)}}
	teams := &toolset.API{Name: "league teams", Description: "List the teams of a league, with their name, league and city.", Params: []*toolset.Param{param("id", toolset.KindNumber)}}
	ping := &toolset.API{Name: "ping"}
	create := &toolset.API{Name: "Create Order", Method: "POST", Params: []*toolset.Param{param("product_id", toolset.KindString)}}
	tool("Everything API", "Data", stats, search, convert, weather, validate, book, teams, ping, create)
	tool("Hotels", "Travel", search)

	s, _ := json.Marshal(Infer(stats, Options{}))
	require.Contains(t, string(s), `"stats":{`, "%s", s)
	require.Contains(t, string(s), `"goals"`)

	items := firstObject(Infer(search, Options{}))
	require.Contains(t, items, "id", "a search answers items with IDs")
	require.Contains(t, items, "price")
	require.Equal(t, City, leafKind(t, items["city"]))

	c := Infer(convert, Options{}).(map[string]any)
	for _, k := range []string{"amount", "result", "rate", "from", "to"} {
		require.Contains(t, c, k, "a conversion answers an amount: %v", c)
	}

	wj, _ := json.Marshal(Infer(weather, Options{}))
	require.Contains(t, string(wj), `"temperature"`)
	require.Contains(t, string(wj), `"location"`)

	v := firstObject(Infer(validate, Options{}))
	require.Equal(t, Bool, leafKind(t, v["valid"]))
	require.Contains(t, v, "email")
	require.Contains(t, v, "domain")

	b := firstObject(Infer(book, Options{}))
	require.Contains(t, b, "isbn")
	require.Contains(t, b, "author")

	tm := firstObject(Infer(teams, Options{}))
	for _, k := range []string{"id", "name", "league", "city"} {
		require.Contains(t, tm, k, "%v", tm)
	}
	require.True(t, IsDetail(book))
	require.False(t, IsDetail(teams))
	require.False(t, IsDetail(stats))

	pj, _ := json.Marshal(Infer(ping, Options{}))
	require.Contains(t, string(pj), `"status"`)
	require.Equal(t, "health", Intent(ping))

	o := firstObject(Infer(create, Options{}))
	require.Equal(t, "created", o["status"])
	require.Contains(t, o, "product_id")

	// The paths dependents take values from are in the answer, in the
	// envelope they say.
	p := Infer(search, Options{Paths: []string{"data.hotels[].hotelCode"}}).(map[string]any)
	hotels := p["data"].(map[string]any)["hotels"].([]any)
	require.Contains(t, hotels[0], "hotelCode")
	l, ok := Infer(book, Options{Paths: []string{"[].isbn"}}).([]any)
	require.True(t, ok, "a bare list")
	require.Contains(t, l[0], "isbn")
}

// TestInferFromSiblings: the fields a tool documents for an entity in one
// API are the fields of that entity in the answers of its undocumented
// APIs, and its envelope theirs.
func TestInferFromSiblings(t *testing.T) {
	documented := &toolset.API{Name: "Search Coins", TemplateResponse: json.RawMessage(`{"ok": "bool", "results": [{"coinSymbol": "str", "coinName": "str", "priceUsd": "float", "rank": "int"}]}`)}
	detail := &toolset.API{Name: "Get Coin", Params: []*toolset.Param{param("coinSymbol", toolset.KindString)}}
	other := &toolset.API{Name: "List Coins", TemplateResponse: json.RawMessage(`{"ok": "bool", "results": [{"coinSymbol": "str"}]}`)}
	tool("Coin Board", "Finance", documented, detail, other)
	got := Infer(detail, Options{}).(map[string]any)
	require.Contains(t, got, "ok", "the tool's envelope: %v", got)
	obj := got["results"].(map[string]any)
	for _, k := range []string{"coinSymbol", "coinName", "priceUsd", "rank"} {
		require.Contains(t, obj, k)
	}
}

// FuzzInfer: whatever an API's name, description and parameter names,
// inference answers a template that encodes, the same every time.
func FuzzInfer(f *testing.F) {
	f.Add("Get Player Stats", "Returns the player's goals, assists and minutes.", "player_id")
	f.Add("", "", "")
	f.Add("by by of of", "with , and , or /", "__")
	f.Add("Validate Email (Deprecated)", "including email, domain and score", "email")
	f.Fuzz(func(t *testing.T, name, desc, p string) {
		if len(name) > 500 || len(desc) > 5000 {
			return
		}
		a := &toolset.API{Name: name, Description: desc, Params: []*toolset.Param{{Name: p, Kind: toolset.KindString, Required: true}}}
		sib := &toolset.API{Name: desc, ExampleResponse: json.RawMessage(desc), TemplateResponse: json.RawMessage(name)}
		tool(name, desc, a, sib)
		one, err := json.Marshal(Infer(a, Options{Paths: []string{p, desc}}))
		require.NoError(t, err)
		two, err := json.Marshal(Infer(a, Options{Paths: []string{p, desc}}))
		require.NoError(t, err)
		require.Equal(t, string(one), string(two))
		require.Less(t, len(one), 1<<20)
	})
}
