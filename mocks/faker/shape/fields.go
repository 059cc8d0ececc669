package shape

import "strings"

// Kind is what a field of an answer holds, by meaning: the faker picks
// its value by kind (a City is a city of the world, a Price a number in a
// plausible range).
type Kind uint8

// The kinds of fields.
const (
	Text   Kind = iota // a string nothing more is known about
	Number             // a number nothing more is known about
	Int                // an integer nothing more is known about
	Bool
	ID
	UUID
	Hash
	Token
	Slug
	Code // a short code, or a status code when numeric
	Name // an entity's name: a person's, a team's, a product's, by entity
	PersonName
	FirstName
	LastName
	Username
	Email
	Phone
	Title
	Description
	Message
	Status
	Word // a category, type, genre, tag: one word or two
	Gender
	City
	Country
	CountryCode
	Region
	Address
	Zip
	Lat
	Lon
	TimeZone
	Language
	Currency
	URL
	Image
	Domain
	IP
	MIME
	FileName
	Color
	Version
	Symbol
	ISBN
	IATA
	FlightNumber
	Date
	DateTime
	Time
	Timestamp // Unix seconds (milliseconds when the name says ms)
	BirthDate
	Year
	Month
	Day
	Hour
	Minute
	Duration
	Price
	Rate
	Change
	Percent
	Probability
	Rating
	Score
	Count
	Rank
	Page
	Limit
	Age
	Temperature
	Humidity
	Wind
	Pressure
	Distance
	Size
	Dimension
	Weight
	Elevation
	Population
	Volume
	MarketCap
	Calories
	Hashtag      // "#travel"
	CurrencySign // "€", "$"
	Company      // a provider's, vendor's, manufacturer's name
	VIN          // a vehicle identification number
	Capital      // a country's capital city
)

// Classify tells what the field key of an object about entity (a singular
// noun such as "player", or "") holds; jsonType is the type the
// documentation gives it ("string", "integer", "number", "boolean", or ""
// when unknown), which settles ambiguous names (a numeric "status" is a
// status code, a string "timestamp" a date-time).
func Classify(key, entity, jsonType string) Kind {
	ws := Words(key)
	if len(ws) == 0 {
		return byType(jsonType)
	}
	if k, ok := classifyDomain(ws, Fold(key), jsonType); ok {
		return fitType(k, jsonType)
	}
	k := classify(ws, Fold(key), entity, jsonType)
	return fitType(k, jsonType)
}

func classify(ws []string, f, entity, jt string) Kind {
	last := ws[len(ws)-1]
	first := ws[0]
	has := func(w ...string) bool {
		for _, x := range ws {
			for _, y := range w {
				if x == y {
					return true
				}
			}
		}
		return false
	}
	numeric := jt == "integer" || jt == "number"
	if jt == "boolean" || first == "is" || first == "has" || first == "can" || first == "allow" || first == "should" {
		return Bool
	}
	switch f {
	case "lat", "latitude":
		return Lat
	case "lng", "lon", "long", "longitude":
		return Lon
	case "ok", "success", "valid", "available", "active", "enabled", "verified", "deleted":
		return Bool
	case "dob", "birthdate", "birthday", "dateofbirth", "born":
		return BirthDate
	case "countrycode", "cc", "iso2", "alpha2", "iso3", "alpha3", "isocode", "countryiso":
		return CountryCode
	case "currencycode", "currency", "curr", "basecurrency", "quotecurrency", "fromcurrency", "tocurrency":
		return Currency
	case "timezone", "tz", "tzid", "zoneinfo":
		return TimeZone
	case "language", "lang", "locale", "languagecode", "langcode", "sourcelanguage", "targetlanguage":
		return Language
	case "ip", "ipaddress", "ipv4", "ipv6", "clientip":
		return IP
	case "mime", "mimetype", "contenttype", "mediatype":
		return MIME
	case "flightnumber", "flightno", "flight":
		return FlightNumber
	case "iata", "iatacode", "airportcode", "icao":
		return IATA
	case "marketcap", "marketcapitalization", "mcap":
		return MarketCap
	case "zip", "zipcode", "postal", "postalcode", "postcode":
		return Zip
	case "username", "login", "handle", "screenname", "nickname", "nick", "userhandle", "gamertag":
		return Username
	case "firstname", "givenname", "forename":
		return FirstName
	case "lastname", "surname", "familyname":
		return LastName
	case "fullname", "displayname", "realname":
		return PersonName
	case "statuscode", "httpstatus", "httpcode":
		return Code
	case "filename", "file":
		return FileName
	case "symbol", "ticker", "tickersymbol", "stocksymbol":
		return Symbol
	case "page", "pagenumber", "currentpage", "pageno", "pagenum", "offset":
		return Page
	case "limit", "perpage", "pagesize", "maxresults", "resultsperpage":
		return Limit
	case "totalpages", "pages", "pagecount":
		return Count
	case "nationality", "citizenship":
		return Country
	case "gender", "sex":
		return Gender
	case "age":
		return Age
	case "season":
		if numeric {
			return Year
		}
		return Word
	case "state":
		if entity == "order" || entity == "task" || entity == "job" {
			return Status
		}
		return Region
	}
	switch {
	case has("email", "mail") && last != "verified" && last != "valid" && !numeric:
		return Email
	case has("ip") && (last == "address" || last == "ip"):
		return IP
	case has("mac") && last == "address":
		return Text
	case has("web", "website") && last == "address":
		return URL
	}
	switch last {
	case "id", "ids", "uid", "pk", "key", "guid", "uuid":
		switch {
		case last == "uuid" || last == "guid":
			return UUID
		case last == "key" && !has("api", "access", "secret", "private", "public", "license"):
			if len(ws) == 1 {
				return Token
			}
			return ID
		case last == "key":
			return Token
		}
		return ID
	case "hash", "sha", "sha1", "sha256", "md5", "checksum", "etag", "fingerprint":
		return Hash
	case "token", "cursor", "secret", "signature", "nonce":
		return Token
	case "slug", "permalink":
		if last == "permalink" {
			return URL
		}
		return Slug
	case "email", "mail", "emailaddress":
		return Email
	case "phone", "mobile", "tel", "telephone", "fax", "whatsapp", "phonenumber":
		return Phone
	case "url", "uri", "link", "href", "website", "homepage", "site", "web", "links":
		if has("image", "img", "photo", "picture", "thumbnail", "thumb", "avatar", "logo", "icon", "cover", "poster", "banner") {
			return Image
		}
		return URL
	case "image", "img", "photo", "picture", "pic", "thumbnail", "thumb", "avatar", "logo", "icon", "cover", "poster", "banner", "flag", "headshot", "images", "photos":
		return Image
	case "domain", "hostname", "host":
		return Domain
	case "color", "colour", "hex":
		return Color
	case "version", "ver":
		return Version
	case "isbn", "isbn10", "isbn13":
		return ISBN
	case "city", "town", "municipality", "locality", "hometown", "birthplace":
		return City
	case "country", "nation":
		if has("code", "iso") {
			return CountryCode
		}
		return Country
	case "region", "province", "county", "prefecture", "territory":
		return Region
	case "address", "street", "addr", "addressline", "street1":
		return Address
	case "location", "place", "venue", "origin", "destination":
		if numeric {
			return Int
		}
		if last == "venue" {
			return Name
		}
		return Address
	case "currency":
		return Currency
	case "timezone":
		return TimeZone
	case "language", "lang", "locale":
		return Language
	case "code":
		switch {
		case has("country"):
			return CountryCode
		case has("currency"):
			return Currency
		case has("language", "lang"):
			return Language
		case has("zip", "postal", "post"):
			return Zip
		case has("airport", "iata"):
			return IATA
		case has("status", "http", "error", "response"):
			return Code
		}
		return Code
	case "name", "names":
		switch {
		case len(ws) == 1:
			if personish(entity) {
				return PersonName
			}
			return Name
		case has("first", "given"):
			return FirstName
		case has("last", "family", "sur"):
			return LastName
		case has("full", "display", "real"):
			return PersonName
		case has("user", "screen", "nick"):
			return Username
		case has("city", "town"):
			return City
		case has("country"):
			return Country
		case has("file"):
			return FileName
		case personish(ws[len(ws)-2]):
			return PersonName
		}
		return Name
	case "title", "headline", "subject", "heading":
		return Title
	case "description", "summary", "desc", "about", "bio", "biography", "overview", "abstract", "details",
		"snippet", "excerpt", "body", "content", "text", "comment", "review", "caption", "lyrics", "note",
		"notes", "definition", "instructions", "synopsis", "plot", "answer", "explanation", "translation",
		"transcript", "joke", "quote", "fact", "story", "tagline", "slogan", "meaning", "prompt", "output",
		"completion", "reply", "setup", "punchline", "question", "sentence", "paragraph", "response":
		return Description
	case "message", "msg", "error", "detail", "reason", "info":
		return Message
	case "status", "condition":
		if numeric {
			return Code
		}
		if last == "condition" {
			return Word
		}
		return Status
	case "type", "kind", "category", "categories", "genre", "genres", "tag", "tags", "topic", "topics",
		"industry", "sector", "role", "level", "format", "mode", "class", "breed", "cuisine", "sport",
		"department", "plan", "tier", "label", "labels", "keyword", "keywords", "unit", "units",
		"method", "platform", "os", "brand", "make", "model", "material", "style", "position":
		if last == "position" && numeric {
			return Rank
		}
		if last == "brand" || last == "make" {
			return Name
		}
		return Word
	case "author", "artist", "owner", "driver", "coach", "player", "creator", "reviewer", "director",
		"customer", "contact", "manager", "seller", "buyer", "founder", "ceo", "captain", "singer",
		"composer", "publisher", "user", "by", "actor", "winner", "referee", "recipient", "sender", "assignee":
		if numeric {
			return ID
		}
		if last == "publisher" {
			return Name
		}
		return PersonName
	case "team", "club", "league", "company", "organization", "organisation", "employer", "school", "agency", "firm", "brokerage", "issuer", "registrar", "isp", "bookmaker", "university", "hotel", "restaurant", "store", "shop", "airline", "album", "channel",
		"stadium", "competition", "tournament", "event", "source", "network", "studio", "home", "away":
		if numeric {
			return ID
		}
		return Name
	case "date", "day", "on":
		if has("birth") {
			return BirthDate
		}
		if last == "day" && numeric {
			return Day
		}
		if numeric {
			return Timestamp
		}
		if last == "day" {
			return Word
		}
		return Date
	case "at", "time", "datetime", "timestamp", "updated", "created", "modified", "published", "posted",
		"expires", "expiry", "expiration", "started", "ended", "start", "end", "kickoff", "departure",
		"arrival", "deadline", "lastseen", "since", "until", "ts", "released", "release":
		if numeric {
			if last == "time" && has("prep", "cook", "cooking", "travel", "wait", "response", "reading", "run", "play") {
				return Duration
			}
			return Timestamp
		}
		if last == "time" && len(ws) == 1 {
			return Time
		}
		if last == "release" || last == "released" {
			return Date
		}
		return DateTime
	case "ms", "millis", "milliseconds", "epoch", "unix":
		if numeric {
			if has("duration", "length", "runtime") {
				return Duration
			}
			return Timestamp
		}
	case "year", "years", "founded", "established", "yearfounded":
		if last == "years" {
			return Count
		}
		return Year
	case "month":
		return Month
	case "hour", "hours":
		return Hour
	case "minute", "minutes", "mins", "seconds", "secs", "duration", "runtime", "length", "playtime":
		if last == "length" && !has("duration", "track", "song", "video", "movie", "episode") {
			return Size
		}
		if !numeric && jt != "" {
			return Duration
		}
		return Duration
	case "price", "cost", "fare", "fee", "fees", "amount", "salary", "balance", "revenue", "budget",
		"income", "earnings", "subtotal", "tax", "discount", "wage", "pay", "payout", "spend", "bid", "ask",
		"open", "close", "high", "low", "worth", "networth", "value", "usd", "eur", "prize":
		if last == "value" && !has("market", "trade", "total", "transfer", "estimated", "order", "portfolio") && jt != "number" {
			return Number
		}
		return Price
	case "total":
		if has("price", "amount", "cost") {
			return Price
		}
		return Count
	case "rate", "ratio", "multiplier", "odds":
		switch {
		case has("exchange", "conversion", "fx", "interest"):
			return Rate
		case has("success", "win", "hit", "error", "growth", "tax", "discount", "completion", "click", "bounce"):
			return Percent
		case has("heart", "bit", "sample", "frame"):
			return Int
		}
		return Rate
	case "change", "delta", "diff":
		if has("percent", "pct", "percentage") {
			return Percent
		}
		return Change
	case "percent", "percentage", "pct", "share":
		return Percent
	case "probability", "confidence", "likelihood", "certainty", "similarity", "relevance":
		return Probability
	case "rating", "ratings", "stars", "grade", "imdb":
		if last == "ratings" {
			return Count
		}
		return Rating
	case "score", "points", "pts", "xp", "karma", "elo", "goals", "runs", "wickets":

		if last == "goals" || last == "runs" || last == "wickets" {
			return Count
		}
		return Score
	case "rank", "ranking", "seed", "order", "index", "number", "no", "num", "jersey", "shirt":
		if last == "number" && has("phone", "mobile", "tel") {
			return Phone
		}
		if last == "number" && has("flight") {
			return FlightNumber
		}
		if (last == "number" || last == "no" || last == "num") && has("order", "invoice", "tracking", "account", "reference", "serial", "vin", "registration", "policy", "license", "passport") {
			return ID
		}
		if last == "order" && !numeric && jt != "" {
			return Word
		}
		return Rank
	case "count", "counts", "quantity", "qty", "views", "likes", "dislikes", "followers", "following",
		"subscribers", "shares", "downloads", "plays", "streams", "members", "employees", "stock", "wins",
		"losses", "draws", "games", "matches", "appearances", "assists", "rebounds", "steals", "blocks",
		"saves", "played", "won", "lost", "drawn", "visits", "clicks", "impressions", "reviews", "comments",
		"votes", "items", "results", "hits", "attendance", "capacity", "rooms", "beds", "seats", "episodes", "seasons", "tracks", "words", "characters", "records", "entries", "users", "tweets", "posts",
		"listeners", "inventory", "sold", "orders", "bookings", "transactions", "cards", "fouls", "caps",
		"touchdowns", "yards", "homeruns", "strikeouts", "kills", "deaths", "rounds", "laps":
		return Count
	case "temp", "temperature", "tempc", "tempf", "feelslike", "dewpoint", "celsius", "fahrenheit", "mintemp", "maxtemp":
		return Temperature
	case "humidity", "cloudcover", "clouds", "precipitation", "precip", "uv", "uvi", "visibility":
		if last == "uv" || last == "uvi" {
			return Score
		}
		if last == "visibility" {
			return Distance
		}
		return Humidity
	case "wind", "windspeed", "gust", "kph", "mph", "speed":
		return Wind
	case "pressure", "mb", "hpa":
		return Pressure
	case "distance", "km", "miles", "meters", "radius", "kilometers", "mi", "range":
		return Distance
	case "size", "bytes", "filesize", "kb":
		if has("page", "batch", "shoe", "team", "party", "group", "font", "screen") {
			return Int
		}
		return Size
	case "width", "height", "w", "h", "depth", "resolution":
		if entityIs(entity, "person") && last == "height" {
			return Dimension
		}
		return Dimension
	case "weight", "kg", "lbs", "mass":
		return Weight
	case "elevation", "altitude", "alt":
		return Elevation
	case "population", "inhabitants", "pop":
		return Population
	case "volume", "volume24h", "turnover":
		return Volume
	case "calories", "kcal", "energy":
		return Calories
	}
	switch {
	case strings.HasSuffix(f, "id") && len(ws) == 1 && len(f) > 3 && !strings.HasSuffix(f, "paid") && !strings.HasSuffix(f, "valid") && !strings.HasSuffix(f, "android") && !strings.HasSuffix(f, "void"):
		return ID
	case strings.HasSuffix(f, "url"):
		return URL
	case strings.HasSuffix(f, "count") || strings.HasPrefix(f, "num") && len(ws) > 1 || strings.HasPrefix(f, "total") && numeric:
		return Count
	case strings.HasSuffix(f, "at") && len(ws) > 1 && !numeric:
		return DateTime
	case strings.Contains(f, "date"):
		return Date
	case strings.Contains(f, "price"):
		return Price
	case strings.Contains(f, "email"):
		return Email
	}
	return byType(jt)
}

// fitType settles a kind with the documented type: a kind whose values
// are text cannot fill a number, and the other way round.
func fitType(k Kind, jt string) Kind {
	switch jt {
	case "integer", "number":
		switch k {
		case ID, Code, Year, Month, Day, Hour, Minute, Duration, Price, Rate, Change, Percent, Probability, Rating,
			Score, Count, Rank, Page, Limit, Age, Temperature, Humidity, Wind, Pressure, Distance, Size, Dimension,
			Weight, Elevation, Population, Volume, MarketCap, Calories, Lat, Lon, Timestamp, Number, Int:
			if k == Number && jt == "integer" {
				return Int
			}
			return k
		case Date, DateTime, Time, BirthDate:
			return Timestamp
		case Bool:
			return Int
		}
		if jt == "integer" {
			return Int
		}
		return Number
	case "boolean":
		return Bool
	case "string":
		switch k {
		case Number, Int, Bool:
			return Text
		}
	}
	return k
}

func byType(jt string) Kind {
	switch jt {
	case "integer":
		return Int
	case "number":
		return Number
	case "boolean":
		return Bool
	}
	return Text
}

// JSONType is the JSON type a kind's values have when the documentation
// does not say: "string", "integer", "number" or "boolean".
func (k Kind) JSONType() string {
	switch k {
	case Int, Year, Month, Day, Hour, Minute, Duration, Count, Rank, Page, Limit, Age, Size, Dimension,
		Population, Timestamp, Calories, Code:
		return "integer"
	case Number, Price, Rate, Change, Percent, Probability, Rating, Score, Temperature, Humidity, Wind,
		Pressure, Distance, Weight, Elevation, Volume, MarketCap, Lat, Lon:
		return "number"
	case Bool:
		return "boolean"
	}
	return "string"
}

// Leaf is a leaf of an inferred template: a value of a kind. It encodes
// as the kind's ToolBench type name.
type Leaf struct{ Kind Kind }

// MarshalJSON writes the leaf as ToolBench writes a type: "str", "int".
func (l Leaf) MarshalJSON() ([]byte, error) { return []byte(`"` + l.Kind.Template() + `"`), nil }

// Template is the ToolBench template type name of a kind ("str", "int",
// "float", "bool").
func (k Kind) Template() string {
	switch k.JSONType() {
	case "integer":
		return "int"
	case "number":
		return "float"
	case "boolean":
		return "bool"
	}
	return "str"
}

// personNouns are entities that are people: their name is a person's.
var personNouns = map[string]bool{
	"player": true, "athlete": true, "user": true, "author": true, "artist": true, "actor": true, "actress": true,
	"employee": true, "customer": true, "member": true, "contact": true, "driver": true, "coach": true,
	"person": true, "candidate": true, "doctor": true, "teacher": true, "student": true, "agent": true,
	"seller": true, "buyer": true, "character": true, "celebrity": true, "singer": true, "musician": true,
	"writer": true, "politician": true, "speaker": true, "guest": true, "follower": true, "friend": true,
	"creator": true, "influencer": true, "streamer": true, "owner": true, "passenger": true, "patient": true,
	"manager": true, "referee": true, "jockey": true, "rider": true, "fighter": true, "boxer": true,
	"golfer": true, "racer": true, "pilot": true, "director": true, "reviewer": true, "recipient": true,
	"sender": true, "influencers": true, "lawyer": true, "staff": true, "nominee": true,
	"composer": true, "poet": true, "scientist": true, "founder": true, "investor": true, "leader": true,
	"representative": true, "senator": true, "official": true, "worker": true, "freelancer": true,
	"developer": true, "tenant": true, "landlord": true, "host": true, "traveler": true, "client": true,
	"profile": true, "account": true, "people": true, "subscriber": true, "winner": true, "captain": true,
}

func personish(w string) bool { return personNouns[w] }

// entityIs reports whether a noun belongs to a class.
func entityIs(noun, class string) bool { return ClassOf(noun) == class }
