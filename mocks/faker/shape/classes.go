package shape

// Entity classes: what kind of thing an API answers about, which fields
// an object of it has by default (ClassOf tells a noun's).
const (
	ClassGeneric    = "generic"
	ClassPerson     = "person"
	ClassTeam       = "team"
	ClassLeague     = "league"
	ClassMatch      = "match"
	ClassPlace      = "place"
	ClassHotel      = "hotel"
	ClassProduct    = "product"
	ClassMovie      = "movie"
	ClassSong       = "song"
	ClassAlbum      = "album"
	ClassBook       = "book"
	ClassVideo      = "video"
	ClassArticle    = "article"
	ClassReview     = "review"
	ClassCompany    = "company"
	ClassInstrument = "instrument"
	ClassCurrency   = "currency"
	ClassJob        = "job"
	ClassRecipe     = "recipe"
	ClassFile       = "file"
	ClassImage      = "image"
	ClassFlight     = "flight"
	ClassOrder      = "order"
	ClassCity       = "city"
	ClassCountry    = "country"
	ClassWord       = "word"
	ClassQuote      = "quote"
	ClassEvent      = "event"
	ClassMessage    = "message"
	ClassLabel      = "label"
	ClassLanguage   = "language"
	ClassUser       = "user"
	ClassTransfer   = "transfer"
	ClassStanding   = "standing"
)

var classes = map[string][]string{
	ClassPerson: {"player", "athlete", "author", "artist", "actor", "actress", "employee", "member", "contact", "driver",
		"coach", "person", "candidate", "doctor", "teacher", "student", "agent", "character", "celebrity", "singer",
		"musician", "writer", "politician", "speaker", "guest", "creator", "influencer", "streamer", "owner",
		"passenger", "patient", "manager", "referee", "jockey", "rider", "fighter", "boxer", "golfer", "racer",
		"pilot", "director", "lawyer", "staff", "nominee", "composer", "poet", "scientist", "founder", "investor",
		"leader", "senator", "official", "worker", "freelancer", "developer", "tenant", "traveler", "people",
		"winner", "captain", "cast", "crew", "squad", "roster", "lineup"},
	ClassUser:       {"user", "account", "profile", "customer", "subscriber", "follower", "friend", "client", "buyer", "seller", "host"},
	ClassTeam:       {"team", "club", "franchise", "side"},
	ClassLeague:     {"league", "competition", "tournament", "championship", "cup", "division"},
	ClassMatch:      {"match", "fixture", "game", "race", "fight", "bout", "round"},
	ClassPlace:      {"place", "poi", "venue", "restaurant", "attraction", "store", "shop", "airport", "station", "property", "listing", "park", "museum", "bar", "cafe", "gym", "hospital", "landmark", "spot", "location", "beach", "campground", "stadium", "branch", "outlet", "dealer", "pharmacy", "clinic", "school", "university", "college", "charger", "parking"},
	ClassHotel:      {"hotel", "accommodation", "stay", "room", "apartment", "hostel", "resort", "rental"},
	ClassProduct:    {"product", "item", "offer", "deal", "car", "vehicle", "device", "gadget", "laptop", "watch", "shoe", "sneaker", "furniture", "toy", "part", "sku", "coupon", "plan", "package", "model", "wine", "beer", "perfume", "app", "plugin", "extension"},
	ClassMovie:      {"movie", "film", "show", "series", "tv", "anime", "manga", "episode", "season", "title", "documentary", "cartoon", "drama"},
	ClassSong:       {"song", "track", "single", "tune", "lyric"},
	ClassAlbum:      {"album", "playlist", "record", "ep", "mixtape"},
	ClassBook:       {"book", "novel", "ebook", "comic", "magazine", "paper", "publication", "journal"},
	ClassVideo:      {"video", "clip", "reel", "stream", "podcast", "channel", "short", "broadcast", "live"},
	ClassArticle:    {"article", "news", "post", "story", "headline", "blog", "tweet", "press", "feed", "update", "announcement", "thread", "entry", "tip", "guide"},
	ClassReview:     {"review", "comment", "rating", "feedback", "testimonial", "reply", "answer"},
	ClassCompany:    {"company", "organization", "organisation", "business", "brand", "startup", "bank", "agency", "firm", "employer", "manufacturer", "brewery", "institution", "charity", "vendor", "supplier", "provider", "merchant", "publisher", "studio", "network", "carrier", "exchange", "broker", "airline", "operator", "sponsor"},
	ClassInstrument: {"stock", "ticker", "symbol", "coin", "crypto", "cryptocurrency", "token", "asset", "fund", "etf", "index", "pair", "market", "share", "bond", "commodity", "option", "future", "security", "nft", "equity"},
	ClassCurrency:   {"currency", "fiat"},
	ClassJob:        {"job", "vacancy", "opening", "gig", "internship", "career", "role", "posting", "opportunity"},
	ClassRecipe:     {"recipe", "dish", "meal", "food", "drink", "cocktail", "snack", "dessert", "ingredient", "menu", "beverage", "nutrition"},
	ClassFile:       {"file", "document", "attachment", "pdf", "upload", "doc", "folder", "report", "backup", "spreadsheet"},
	ClassImage:      {"image", "photo", "picture", "wallpaper", "gif", "sticker", "meme", "icon", "avatar", "screenshot", "thumbnail", "logo", "artwork", "painting", "illustration", "qr", "qrcode", "barcode", "chart"},
	ClassFlight:     {"flight", "route", "connection", "departure", "arrival", "itinerary", "trip", "journey", "ride", "fare"},
	ClassOrder:      {"order", "transaction", "payment", "invoice", "booking", "reservation", "ticket", "subscription", "shipment", "purchase", "delivery", "parcel", "refund", "charge", "cart", "bill", "receipt", "donation", "claim", "case", "task", "request"},
	ClassCity:       {"city", "town", "region", "state", "province", "district", "neighborhood", "neighbourhood", "area", "zone", "county", "village", "suburb", "municipality", "address", "zip", "postcode", "zipcode"},
	ClassCountry:    {"country", "nation", "territory", "continent"},
	ClassWord:       {"word", "term", "definition", "synonym", "antonym", "idiom", "phrase", "slang", "acronym", "abbreviation", "rhyme", "emoji", "baby"},
	ClassQuote:      {"quote", "joke", "fact", "riddle", "trivia", "question", "saying", "proverb", "pun", "pickup", "excuse", "insult", "compliment", "affirmation", "horoscope", "fortune", "advice", "poem", "verse", "prayer"},
	ClassEvent:      {"event", "concert", "festival", "conference", "meetup", "webinar", "exhibition", "holiday", "performance", "appointment", "meeting", "session", "course", "lesson", "workshop"},
	ClassMessage:    {"message", "email", "sms", "notification", "chat", "mail", "conversation", "inbox", "alert", "reminder", "webhook"},
	ClassLabel:      {"category", "tag", "genre", "topic", "type", "keyword", "hashtag", "label", "sport", "breed", "skill", "interest", "industry", "sector", "department", "color", "size", "unit", "format", "platform", "source", "collection", "list", "group", "animal", "species", "pokemon", "hero", "champion", "card", "ability", "move", "weapon", "spell", "element", "planet", "star", "constellation", "plant", "flower", "tree", "dog", "cat", "bird", "fish", "insect", "dinosaur", "make"},
	ClassLanguage:   {"language", "locale", "dialect"},
	ClassTransfer:   {"transfer", "trade", "signing", "loan"},
	ClassStanding:   {"standing", "standings", "table", "ranking", "rankings", "leaderboard", "ladder"},
}

var classByNoun = func() map[string]string {
	m := map[string]string{}
	for c, nouns := range classes {
		for _, n := range nouns {
			m[n] = c
		}
	}
	return m
}()

// ClassOf is the class of an entity noun (singular): one of the Class*
// constants, ClassGeneric when the noun is unknown.
func ClassOf(noun string) string {
	if c, ok := classByNoun[noun]; ok {
		return c
	}
	return ClassGeneric
}

// fields are an object's fields as snake_case names with the kind each
// holds; Object turns them into a template in the tool's naming style.
type fields []fieldDef

type fieldDef struct {
	name string // snake_case
	tmpl any    // a Leaf, a template type name ("str"), a literal, or a nested template
}

func f(name string, k Kind) fieldDef { return fieldDef{name, Leaf{k}} }

func fl(name string, elem any) fieldDef { return fieldDef{name, []any{elem}} }

// defaults are the fields an object of each class has when nothing
// documents them; the first is its identifier.
func defaults(class string, sports bool) fields {
	switch class {
	case ClassPerson:
		if sports {
			return fields{f("id", ID), f("name", PersonName), f("team", Name), f("position", Word), f("nationality", Country), f("age", Age), f("number", Rank)}
		}
		return fields{f("id", ID), f("name", PersonName), f("country", Country), f("age", Age), f("image", Image)}
	case ClassUser:
		return fields{f("id", ID), f("username", Username), f("name", PersonName), f("email", Email), f("country", Country), f("created_at", DateTime), f("avatar", Image)}
	case ClassTeam:
		return fields{f("id", ID), f("name", Name), f("city", City), f("country", Country), f("founded", Year), f("stadium", Name), f("logo", Image)}
	case ClassLeague:
		return fields{f("id", ID), f("name", Name), f("country", Country), f("season", Year), f("teams", Count)}
	case ClassMatch:
		return fields{f("id", ID), f("home_team", Name), f("away_team", Name), f("date", DateTime), f("venue", Name), f("status", Status), f("home_score", Count), f("away_score", Count)}
	case ClassPlace:
		return fields{f("id", ID), f("name", Name), f("address", Address), f("city", City), f("country", Country), f("lat", Lat), f("lng", Lon), f("rating", Rating), f("phone", Phone), f("website", URL)}
	case ClassHotel:
		return fields{f("id", ID), f("name", Name), f("address", Address), f("city", City), f("country", Country), f("lat", Lat), f("lng", Lon), f("stars", Rating), f("review_score", Score), f("price", Price), f("currency", Currency), f("url", URL), f("photo", Image)}
	case ClassProduct:
		return fields{f("id", ID), f("name", Name), f("brand", Name), f("category", Word), f("price", Price), f("currency", Currency), f("rating", Rating), f("reviews", Count), f("in_stock", Bool), f("url", URL), f("image", Image)}
	case ClassMovie:
		return fields{f("id", ID), f("title", Title), f("year", Year), f("genre", Word), f("rating", Rating), f("runtime", Duration), f("overview", Description), f("poster", Image)}
	case ClassSong:
		return fields{f("id", ID), f("title", Title), f("artist", PersonName), f("album", Name), f("duration", Duration), f("release_date", Date), f("url", URL)}
	case ClassAlbum:
		return fields{f("id", ID), f("title", Title), f("artist", PersonName), f("year", Year), f("tracks", Count), f("cover", Image)}
	case ClassBook:
		return fields{f("id", ID), f("title", Title), f("author", PersonName), f("isbn", ISBN), f("publisher", Name), f("year", Year), f("rating", Rating), f("cover", Image)}
	case ClassVideo:
		return fields{f("id", ID), f("title", Title), f("channel", Name), f("views", Count), f("duration", Duration), f("published_at", DateTime), f("url", URL), f("thumbnail", Image)}
	case ClassArticle:
		return fields{f("id", ID), f("title", Title), f("url", URL), f("source", Name), f("author", PersonName), f("published_at", DateTime), f("summary", Description), f("image", Image)}
	case ClassReview:
		return fields{f("id", ID), f("author", PersonName), f("rating", Rating), f("text", Description), f("date", Date)}
	case ClassCompany:
		return fields{f("id", ID), f("name", Name), f("industry", Word), f("country", Country), f("city", City), f("website", URL), f("founded", Year), f("employees", Count)}
	case ClassInstrument:
		return fields{f("symbol", Symbol), f("name", Name), f("price", Price), f("currency", Currency), f("change", Change), f("change_percent", Percent), f("market_cap", MarketCap), f("volume", Volume), f("updated_at", DateTime)}
	case ClassCurrency:
		return fields{f("code", Currency), f("name", Name), f("symbol", Text), f("rate", Rate)}
	case ClassJob:
		return fields{f("id", ID), f("title", Title), f("company", Name), f("location", Address), f("salary", Price), f("currency", Currency), f("employment_type", Word), f("posted_at", DateTime), f("url", URL)}
	case ClassRecipe:
		return fields{f("id", ID), f("name", Name), f("cuisine", Word), fl("ingredients", Leaf{Word}), f("prep_time", Duration), f("calories", Calories), f("image", Image)}
	case ClassFile:
		return fields{f("id", ID), f("name", FileName), f("size", Size), f("mime_type", MIME), f("url", URL), f("created_at", DateTime)}
	case ClassImage:
		return fields{f("id", ID), f("url", Image), f("width", Dimension), f("height", Dimension), f("title", Title), f("author", PersonName)}
	case ClassFlight:
		return fields{f("id", ID), f("flight_number", FlightNumber), f("airline", Name), f("origin", IATA), f("destination", IATA), f("departure_time", DateTime), f("arrival_time", DateTime), f("price", Price), f("currency", Currency), f("status", Status)}
	case ClassOrder:
		return fields{f("id", ID), f("status", Status), f("amount", Price), f("currency", Currency), f("created_at", DateTime), f("customer", PersonName)}
	case ClassCity:
		return fields{f("id", ID), f("name", City), f("country", Country), f("region", Region), f("lat", Lat), f("lng", Lon), f("population", Population), f("timezone", TimeZone)}
	case ClassCountry:
		return fields{f("code", CountryCode), f("name", Country), f("capital", City), f("region", Word), f("population", Population), f("currency", Currency)}
	case ClassWord:
		return fields{f("word", Text), f("definition", Description), f("part_of_speech", Word), f("example", Description)}
	case ClassQuote:
		return fields{f("id", ID), f("text", Description), f("author", PersonName), f("category", Word)}
	case ClassEvent:
		return fields{f("id", ID), f("name", Name), f("date", DateTime), f("venue", Name), f("city", City), f("url", URL), f("price", Price), f("currency", Currency)}
	case ClassMessage:
		return fields{f("id", ID), f("from", Email), f("to", Email), f("subject", Title), f("text", Description), f("sent_at", DateTime), f("status", Status)}
	case ClassLabel:
		return fields{f("id", ID), f("name", Name), f("slug", Slug), f("count", Count)}
	case ClassLanguage:
		return fields{f("code", Language), f("name", Name), f("native_name", Language)}
	case ClassTransfer:
		return fields{f("player", PersonName), f("from_team", Name), f("to_team", Name), f("fee", Price), f("currency", Currency), f("date", Date)}
	case ClassStanding:
		return fields{f("rank", Rank), f("team", Name), f("played", Count), f("won", Count), f("drawn", Count), f("lost", Count), f("points", Score)}
	}
	return fields{f("id", ID), f("name", Name), f("description", Description), f("created_at", DateTime), f("url", URL)}
}

// stats are the figures a "stats" API answers, by domain.
func stats(class string, domain string) fields {
	switch {
	case domain == "basketball":
		return fields{f("games", Count), f("points", Score), f("rebounds", Count), f("assists", Count), f("steals", Count), f("blocks", Count), f("minutes", Duration)}
	case class == ClassTeam || class == ClassLeague:
		return fields{f("played", Count), f("won", Count), f("drawn", Count), f("lost", Count), f("goals_for", Count), f("goals_against", Count), f("points", Score)}
	case domain == "sports" || class == ClassPerson:
		return fields{f("appearances", Count), f("goals", Count), f("assists", Count), f("minutes", Duration), f("yellow_cards", Count), f("red_cards", Count), f("rating", Rating)}
	case class == ClassInstrument || domain == "finance":
		return fields{f("open", Price), f("high", Price), f("low", Price), f("close", Price), f("volume", Volume), f("market_cap", MarketCap)}
	case class == ClassUser || domain == "social":
		return fields{f("followers", Count), f("following", Count), f("posts", Count), f("likes", Count), f("engagement_rate", Percent)}
	case class == ClassVideo || class == ClassArticle:
		return fields{f("views", Count), f("likes", Count), f("comments", Count), f("shares", Count)}
	}
	return fields{f("count", Count), f("total", Count), f("average", Number), f("min", Number), f("max", Number), f("updated_at", DateTime)}
}
