package tbgen

import (
	"fmt"
	"strings"
)

// kind is what a field holds, by meaning: it picks the field's JSON type,
// its ToolBench parameter type, its description and its example values,
// so that a faker reading the tree can tell a city from a price.
type kind uint8

const (
	kID kind = iota
	kPerson
	kUsername
	kTeam
	kLeague
	kTitle
	kText
	kWord
	kInt
	kCount
	kFloat
	kPrice
	kCurrency
	kCity
	kCountry
	kCountryCode
	kLat
	kLng
	kDate
	kDateTime
	kTime
	kURL
	kImage
	kEmail
	kPhone
	kBool
	kRating
	kPercent
	kEnum
	kYear
	kAddress
	kZip
	kLang
	kSymbol
	kCoin
	kTemp
	kCompany
	kDuration
	kScore
	kIP
	kDomain
	kIATA
	kAirline
	kHotel
	kCuisine
	kIngredient
	kJob
	kProduct
	kISBN
	kVIN
	kTracking
	kTimezone
	kColor
	kGenre
	kBrand
	kVenue
)

var kindNames = map[string]kind{
	"id": kID, "person": kPerson, "username": kUsername, "team": kTeam, "league": kLeague, "title": kTitle,
	"text": kText, "word": kWord, "int": kInt, "count": kCount, "float": kFloat, "price": kPrice,
	"currency": kCurrency, "city": kCity, "country": kCountry, "cc": kCountryCode, "lat": kLat, "lng": kLng,
	"date": kDate, "datetime": kDateTime, "time": kTime, "url": kURL, "image": kImage, "email": kEmail,
	"phone": kPhone, "bool": kBool, "rating": kRating, "percent": kPercent, "enum": kEnum, "year": kYear,
	"address": kAddress, "zip": kZip, "lang": kLang, "symbol": kSymbol, "coin": kCoin, "temp": kTemp,
	"company": kCompany, "duration": kDuration, "score": kScore, "ip": kIP, "domain": kDomain, "iata": kIATA,
	"airline": kAirline, "hotel": kHotel, "cuisine": kCuisine, "ingredient": kIngredient, "job": kJob,
	"product": kProduct, "isbn": kISBN, "vin": kVIN, "tracking": kTracking, "tz": kTimezone, "color": kColor,
	"genre": kGenre, "brand": kBrand, "venue": kVenue,
}

// jsonType is the JSON schema type of a value of the kind.
func (k kind) jsonType() string {
	switch k {
	case kInt, kCount, kYear:
		return "integer"
	case kFloat, kPrice, kLat, kLng, kRating, kPercent, kTemp:
		return "number"
	case kBool:
		return "boolean"
	}
	return "string"
}

// paramType is the kind's ToolBench parameter type.
func (k kind) paramType() string {
	switch k {
	case kInt, kCount, kYear, kFloat, kPrice, kLat, kLng, kRating, kPercent, kTemp:
		return "NUMBER"
	case kBool:
		return "BOOLEAN"
	case kDate:
		return "DATE (YYYY-MM-DD)"
	case kTime:
		return "TIME (24-hour HH:MM)"
	case kEnum:
		return "ENUM"
	}
	return "STRING"
}

// field is one attribute of an entity.
type field struct {
	Name   string
	Kind   kind
	Enum   []string
	Lookup bool // the entity can be looked up by this field ("Get Coin by Symbol")
}

// entity is a thing a domain's APIs search, list and return.
type entity struct {
	One, Many string
	Fields    []field // Fields[0] is the ID
	Search    []field // extra search parameters (check-in dates, guests)
}

func (e *entity) lookup() *field {
	for i := range e.Fields {
		if e.Fields[i].Lookup {
			return &e.Fields[i]
		}
	}
	return nil
}

// nameField is the field a search matches: the first text-like field.
func (e *entity) nameField() field {
	for _, f := range e.Fields[1:] {
		switch f.Kind {
		case kPerson, kTeam, kLeague, kTitle, kWord, kCity, kCompany, kHotel, kProduct, kJob, kUsername, kIngredient, kVenue, kBrand, kAirline:
			return f
		}
	}
	return e.Fields[1]
}

// domain is a subject RapidAPI tools cover: the topic their descriptions
// name, the stems of their names and the entities their APIs serve.
type domain struct {
	Key      string
	Topic    string
	Stems    []string
	Entities []*entity
	Rels     [][2]int // parent, child entity indexes ("Team Players")
}

type domainSpec struct {
	key, topic, stems string
	entities          []string // "one/many field:kind field*:kind field:enum=a|b"
	rels              string   // "team>player league>match"
	search            map[string]string
}

var domainSpecs = []domainSpec{
	{"football", "football (soccer) live scores, fixtures, standings and player statistics", "Football|Soccer|Live Score|Footy|Goal|Pitch Side|Futbol|Premier Football",
		[]string{
			"league/leagues league_id:id name:league country:country season:year teams_count:count logo:image",
			"team/teams team_id:id name:team league:league city:city founded:year stadium:venue logo:image",
			"player/players player_id:id name:person team:team position:enum=Goalkeeper|Defender|Midfielder|Forward age:int nationality:country goals:count",
			"match/matches match_id:id home_team:team away_team:team date:date score:score status:enum=scheduled|live|finished venue:venue",
		}, "league>team team>player league>match", nil},
	{"basketball", "basketball games, teams, box scores and player stats for the NBA and other leagues", "Basketball|NBA Stats|Hoops|Court Side|Slam Dunk|Basket Live",
		[]string{
			"team/teams team_id:id name:team city:city conference:enum=East|West wins:count losses:count",
			"player/players player_id:id name:person team:team position:enum=PG|SG|SF|PF|C points_per_game:float height:word",
			"game/games game_id:id home_team:team visitor_team:team date:date home_score:count visitor_score:count status:enum=scheduled|in_progress|final",
		}, "team>player team>game", nil},
	{"gaming", "video games, esports tournaments, prices and player profiles", "Game|Gamer|Esports|Play|Steam Deals|Arcade|Loot",
		[]string{
			"game/games game_id:id title:title genre:genre platform:enum=PC|PlayStation|Xbox|Switch|Mobile release_date:date rating:rating price:price",
			"tournament/tournaments tournament_id:id name:title game:title prize_pool:price start_date:date city:city",
			"streamer/streamers streamer_id:id username*:username followers:count language:lang is_live:bool",
		}, "game>tournament", nil},
	{"crypto", "cryptocurrency prices, market caps, exchanges and on-chain data", "Crypto|Coin|Bitcoin|Blockchain|CryptoMarket|Token|DeFi|Chain",
		[]string{
			"coin/coins coin_id:id symbol*:coin name:word price_usd:price market_cap:price change_24h:percent rank:int",
			"exchange/exchanges exchange_id:id name:company country:country volume_24h:price trust_score:rating url:url",
			"wallet/wallets address*:word balance:float coin:coin transactions:count last_activity:datetime",
		}, "exchange>coin", nil},
	{"stocks", "stock quotes, company fundamentals, dividends and market news", "Stock|Market|Finance|Ticker|Wall Street|Trader|Equity|Invest",
		[]string{
			"stock/stocks stock_id:id symbol*:symbol company:company price:price currency:currency change_percent:percent volume:count exchange:enum=NASDAQ|NYSE|LSE|XETRA",
			"company/companies company_id:id name:company sector:enum=Technology|Healthcare|Energy|Finance|Retail country:country employees:count ceo:person",
			"dividend/dividends dividend_id:id symbol:symbol amount:price currency:currency ex_date:date pay_date:date",
		}, "company>dividend", nil},
	{"currency", "currency exchange rates, conversion and historical forex data", "Currency|Forex|Exchange Rate|FX|Money Converter|Rates",
		[]string{
			"currency/currencies code*:currency name:word symbol:word country:country",
			"rate/rates rate_id:id base:currency target:currency rate:float date:date",
		}, "", nil},
	{"recipes", "recipes, ingredients, nutrition facts and meal plans", "Recipe|Cooking|Kitchen|Food|Chef|Meal|Tasty",
		[]string{
			"recipe/recipes recipe_id:id title:title cuisine:cuisine calories:count prep_time:duration rating:rating image:image",
			"ingredient/ingredients ingredient_id:id name:ingredient calories:count protein:float unit:enum=g|ml|cup|tbsp",
		}, "recipe>ingredient", nil},
	{"restaurants", "restaurants, menus, reviews and table reservations", "Restaurant|Dining|Eat Out|Table|Bistro|Food Finder",
		[]string{
			"restaurant/restaurants restaurant_id:id name:venue cuisine:cuisine city:city address:address rating:rating price_level:enum=$|$$|$$$|$$$$",
			"review/reviews review_id:id author:person rating:rating text:text date:date",
		}, "restaurant>review", nil},
	{"movies", "movies, TV shows, cast, ratings and streaming availability", "Movie|Film|Cinema|IMDB Alternative|Movies Database|Flix|Screen|Streaming",
		[]string{
			"movie/movies movie_id:id title:title year:year genre:genre rating:rating runtime:duration language:lang poster:image",
			"actor/actors actor_id:id name:person birth_date:date nationality:country known_for:title",
			"show/shows show_id:id title:title seasons:count network:company status:enum=running|ended",
		}, "movie>actor", nil},
	{"music", "songs, artists, albums, lyrics and charts", "Music|Song|Lyrics|Spotify Data|Tunes|Charts|Beats|Audio",
		[]string{
			"artist/artists artist_id:id name:person genre:genre country:country followers:count",
			"album/albums album_id:id title:title artist:person release_date:date tracks_count:count",
			"track/tracks track_id:id title:title artist:person duration:duration popularity:int",
		}, "artist>album album>track", nil},
	{"books", "books, authors, ISBN lookup and reading lists", "Book|Library|Reader|Open Books|Novel|Page",
		[]string{
			"book/books book_id:id title:title author:person isbn*:isbn year:year genre:genre pages:count",
			"author/authors author_id:id name:person birth_date:date nationality:country books_count:count",
		}, "author>book", nil},
	{"weather", "current weather, forecasts, air quality and weather alerts", "Weather|Forecast|Climate|Meteo|Sky|Storm|Rain|Sun",
		[]string{
			"weather/weather city*:city temperature:temp feels_like:temp humidity:percent wind_speed:float condition:enum=sunny|cloudy|rain|snow|storm date:date",
			"station/stations station_id:id name:word lat:lat lng:lng elevation:int country:cc",
			"alert/alerts alert_id:id event:word severity:enum=minor|moderate|severe|extreme start:datetime end:datetime city:city",
		}, "station>alert", nil},
	{"jobs", "job listings, salaries and company reviews", "Job|Jobs|Career|Hiring|Work|Talent|Recruit",
		[]string{
			"job/jobs job_id:id title:job company:company location:city salary:price currency:currency posted_date:date remote:bool employment_type:enum=full-time|part-time|contract|internship",
			"company/companies company_id:id name:company industry:enum=Software|Finance|Health|Retail|Education rating:rating employees:count",
		}, "company>job", nil},
	{"realestate", "property listings, prices, agents and neighbourhood data", "Real Estate|Property|Realty|Homes|Zillow Data|Housing|Realtor",
		[]string{
			"property/properties property_id:id address:address city:city price:price bedrooms:int bathrooms:int area_sqft:count listing_type:enum=sale|rent lat:lat lng:lng",
			"agent/agents agent_id:id name:person phone:phone email:email agency:company",
		}, "agent>property", nil},
	{"hotels", "hotel search, prices, availability and guest reviews", "Hotel|Hotels|Booking|Stay|Travel Inn|Rooms|Lodging",
		[]string{
			"hotel/hotels hotel_id:id name:hotel city:city country:country stars:int price_per_night:price currency:currency rating:rating lat:lat lng:lng",
			"room/rooms room_id:id type:enum=single|double|suite|family price:price currency:currency max_guests:int",
			"review/reviews review_id:id author:person rating:rating text:text date:date",
		}, "hotel>room hotel>review",
		map[string]string{"hotel": "checkin_date:date checkout_date:date adults:int"}},
	{"flights", "flight search, live flight status, airports and airlines", "Flight|Flights|Airport|Air|Sky Route|Fly|Aviation",
		[]string{
			"flight/flights flight_id:id flight_number*:word airline:airline origin:iata destination:iata departure:datetime arrival:datetime price:price status:enum=scheduled|active|landed|cancelled",
			"airport/airports iata*:iata name:word city:city country:country lat:lat lng:lng timezone:tz",
			"airline/airlines airline_id:id name:airline country:country fleet_size:count",
		}, "airport>flight airline>flight",
		map[string]string{"flight": "date:date adults:int"}},
	{"news", "news headlines and articles from thousands of sources", "News|Headlines|Daily|Press|Newsroom|Media Feed|Reporter",
		[]string{
			"article/articles article_id:id title:title source:company author:person published_at:datetime url:url category:enum=business|sports|technology|health|science|entertainment language:lang",
			"source/sources source_id:id name:company country:country language:lang url:url",
		}, "source>article", nil},
	{"ecommerce", "product search, prices, reviews and orders from online stores", "Shop|Store|Amazon Data|Product|Deals|Cart|Price Tracker|Marketplace",
		[]string{
			"product/products product_id:id name:product brand:brand price:price currency:currency rating:rating in_stock:bool category:enum=electronics|home|fashion|toys|sports",
			"order/orders order_id:id status:enum=pending|paid|shipped|delivered|cancelled total:price currency:currency created_at:datetime email:email",
			"review/reviews review_id:id author:person rating:rating text:text date:date",
		}, "product>review", nil},
	{"social", "social media profiles, posts, followers and comments", "Social|Insta|Tweet|Profile|Follower|Social Media|TikTok Data|Feed",
		[]string{
			"user/users user_id:id username*:username full_name:person followers:count following:count verified:bool bio:text",
			"post/posts post_id:id text:text likes:count comments_count:count created_at:datetime url:url",
			"comment/comments comment_id:id author:username text:text likes:count created_at:datetime",
		}, "user>post post>comment", nil},
	{"email", "email address validation, disposable email detection and mailboxes", "Email|Mail|Inbox|Verify Email|MailCheck|Temp Mail",
		[]string{
			"validation/validations email*:email is_valid:bool domain:domain disposable:bool mx_found:bool score:percent",
			"message/messages message_id:id subject:title from:email received_at:datetime size:count",
		}, "", nil},
	{"sms", "SMS sending, phone number lookup and carrier data", "SMS|Text Message|Phone|Number Lookup|Telco|Messaging",
		[]string{
			"number/numbers phone*:phone country:country carrier:company line_type:enum=mobile|landline|voip valid:bool",
			"message/messages message_id:id to:phone text:text status:enum=queued|sent|delivered|failed sent_at:datetime",
		}, "", nil},
	{"geo", "geocoding, reverse geocoding, places, time zones and country data", "Geo|Maps|Location|Places|GeoDB|Geocoder|Atlas|Address",
		[]string{
			"place/places place_id:id name:venue address:address city:city country:country lat:lat lng:lng postal_code:zip",
			"country/countries code*:cc name:country capital:city population:count currency:currency region:enum=Europe|Asia|Africa|Americas|Oceania",
			"city/cities city_id:id name:city country:country population:count lat:lat lng:lng timezone:tz",
		}, "country>city", nil},
	{"ip", "IP geolocation, domain WHOIS, DNS and threat intelligence", "IP|WHOIS|DNS|Threat|Cyber|Domain|Scanner|Shield",
		[]string{
			"ip/ips ip*:ip country:country city:city isp:company lat:lat lng:lng is_proxy:bool",
			"domain/domains domain*:domain registrar:company created:date expires:date country:cc",
			"scan/scans scan_id:id url:url threat_level:enum=clean|suspicious|malicious score:int scanned_at:datetime",
		}, "", nil},
	{"text", "translation, language detection, sentiment and text analysis", "Translate|Text|Language|NLP|Sentiment|Lingua|Word",
		[]string{
			"language/languages code*:lang name:word native_name:word",
			"translation/translations translation_id:id text:text source_lang:lang target_lang:lang translated_text:text",
			"analysis/analyses analysis_id:id text:text sentiment:enum=positive|neutral|negative score:float language:lang",
		}, "", nil},
	{"images", "image recognition, object detection, image search and video data", "Image|Vision|Photo|Pixel|Video|Face|Snap|Visual",
		[]string{
			"image/images image_id:id url:image width:int height:int format:enum=jpg|png|webp|gif tag:word",
			"detection/detections detection_id:id label:word confidence:percent image:image",
			"video/videos video_id:id title:title duration:duration views:count channel:username published_at:datetime",
		}, "image>detection", nil},
	{"health", "exercises, nutrition, drugs and symptoms", "Fitness|Health|Workout|Nutrition|Drug Info|Medical|Wellness|Gym",
		[]string{
			"exercise/exercises exercise_id:id name:word muscle:enum=biceps|chest|legs|back|shoulders|abs equipment:enum=barbell|dumbbell|body_only|machine difficulty:enum=beginner|intermediate|expert",
			"drug/drugs drug_id:id name:word dosage:word manufacturer:company approved:bool",
			"food/foods food_id:id name:ingredient calories:count protein:float carbs:float fat:float",
		}, "", nil},
	{"education", "courses, universities, school data and science facts", "Edu|Course|University|Learn|Study|Academy|Campus|Science",
		[]string{
			"course/courses course_id:id title:title provider:company duration:duration level:enum=beginner|intermediate|advanced price:price",
			"university/universities university_id:id name:company country:country city:city ranking:int students:count",
			"element/elements symbol*:word name:word atomic_number:int atomic_mass:float category:enum=metal|nonmetal|metalloid|noble_gas",
		}, "university>course", nil},
	{"events", "events, concerts, public holidays and calendars", "Event|Events|Ticket|Concert|Holiday|Calendar|Festival",
		[]string{
			"event/events event_id:id name:title venue:venue city:city date:date price:price category:enum=music|sports|theatre|comedy|conference",
			"holiday/holidays holiday_id:id name:title date:date country:cc type:enum=public|bank|observance",
			"venue/venues venue_id:id name:venue city:city capacity:count address:address",
		}, "venue>event", nil},
	{"logistics", "shipment tracking, carriers, vehicles and transit data", "Track|Parcel|Shipping|Logistics|Fleet|Transit|Cargo|VIN",
		[]string{
			"shipment/shipments tracking_number*:tracking carrier:company status:enum=label_created|in_transit|out_for_delivery|delivered origin:city destination:city estimated_delivery:date",
			"vehicle/vehicles vin*:vin make:brand model:word year:year fuel_type:enum=petrol|diesel|electric|hybrid color:color",
			"stop/stops stop_id:id name:venue city:city lat:lat lng:lng lines:count",
		}, "", nil},
	{"energy", "fuel prices, EV charging stations, electricity and emissions", "Energy|Fuel|Charge|Power|Grid|Solar|Carbon",
		[]string{
			"station/stations station_id:id name:venue city:city lat:lat lng:lng fuel_type:enum=petrol|diesel|electric|lpg price:price",
			"price/prices price_id:id region:country fuel_type:enum=petrol|diesel|electricity price:price currency:currency date:date",
		}, "", nil},
	{"ads", "ad campaigns, keywords, clicks and impressions", "Ads|Campaign|Marketing|SEO|Adwords|Promo|Growth",
		[]string{
			"campaign/campaigns campaign_id:id name:title budget:price status:enum=active|paused|ended start_date:date end_date:date clicks:count impressions:count",
			"keyword/keywords keyword_id:id keyword:word search_volume:count cpc:price competition:percent",
		}, "campaign>keyword", nil},
	{"payments", "payments, invoices, transactions and gift cards", "Pay|Payment|Invoice|Wallet|Checkout|Reward|Gift Card|Billing",
		[]string{
			"transaction/transactions transaction_id:id amount:price currency:currency status:enum=pending|succeeded|failed|refunded created_at:datetime email:email",
			"invoice/invoices invoice_id:id customer:person total:price currency:currency due_date:date paid:bool",
			"card/cards code*:word balance:price currency:currency expires:date brand:brand",
		}, "", nil},
	{"storage", "file storage, databases, records and key-value data", "Storage|Cloud|DB|Data Store|Files|Bucket|Records",
		[]string{
			"file/files file_id:id name:word size:count mime_type:enum=application/pdf|image/png|text/csv|application/json created_at:datetime url:url",
			"record/records record_id:id key:word value:text updated_at:datetime",
			"table/tables table_id:id name:word rows:count created_at:datetime",
		}, "table>record", nil},
	{"devices", "IoT devices, sensor readings and device status", "IoT|Device|Sensor|Smart Home|Tracker|Gadget",
		[]string{
			"device/devices device_id:id name:word model:word status:enum=online|offline|sleeping battery:percent last_seen:datetime",
			"reading/readings reading_id:id sensor:enum=temperature|humidity|pressure|co2 value:float unit:enum=C|%|hPa|ppm timestamp:datetime",
		}, "device>reading", nil},
	{"ai", "AI models, text generation, embeddings and predictions", "AI|GPT|Neural|Model|Chatbot|Smart|Predict",
		[]string{
			"model/models model_id:id name:word provider:company context_length:count price_per_token:price",
			"completion/completions completion_id:id prompt:text output:text tokens:count created_at:datetime",
		}, "", nil},
	{"fun", "quotes, jokes, trivia and random facts", "Quote|Joke|Trivia|Fun Fact|Random|Meme|Daily Wisdom",
		[]string{
			"quote/quotes quote_id:id text:text author:person category:enum=life|love|success|humor|wisdom",
			"joke/jokes joke_id:id setup:text punchline:text category:enum=programming|dad|pun|misc",
			"fact/facts fact_id:id text:text topic:word source:url",
		}, "", nil},
	{"business", "company data, WHOIS-style business records, leads and industries", "Company|Business|Leads|Firm|Corp Data|B2B|Enrich",
		[]string{
			"company/companies company_id:id name:company domain*:domain industry:enum=Software|Manufacturing|Finance|Retail|Health employees:count country:country founded:year revenue:price",
			"contact/contacts contact_id:id name:person email:email phone:phone title:job company:company",
		}, "company>contact", nil},
	{"search", "web search, image search and autocomplete suggestions", "Search|Find|Query|SERP|Lookup|Seek",
		[]string{
			"result/results result_id:id title:title url:url snippet:text position:int domain:domain",
			"suggestion/suggestions suggestion_id:id text:word score:float",
		}, "", nil},
	{"monitoring", "website uptime, SSL certificates, response times and status checks", "Uptime|Monitor|Status|Ping|Health Check|Watch",
		[]string{
			"check/checks check_id:id url:url status:enum=up|down|degraded response_time:count uptime:percent checked_at:datetime",
			"certificate/certificates domain*:domain issuer:company valid_from:date valid_to:date days_left:count",
		}, "", nil},
}

// Categories are RapidAPI's 49 categories as ToolBench's tool tree names
// its folders, each with its share of ToolBench's tools (per mille,
// roughly the real tree's) and the domains its tools cover.
var categorySpecs = []struct {
	Name    string
	Weight  int
	Domains string
}{
	{"Advertising", 8, "ads"},
	{"Artificial_Intelligence_Machine_Learning", 22, "ai images text"},
	{"Business", 33, "business realestate jobs"},
	{"Business_Software", 22, "business ads storage"},
	{"Commerce", 18, "ecommerce payments"},
	{"Communication", 22, "sms social email"},
	{"Cryptography", 12, "crypto ip"},
	{"Cybersecurity", 13, "ip monitoring"},
	{"Data", 98, "business geo storage search ip"},
	{"Database", 16, "storage business"},
	{"Devices", 7, "devices"},
	{"eCommerce", 33, "ecommerce"},
	{"Education", 24, "education books"},
	{"Email", 20, "email"},
	{"Energy", 6, "energy"},
	{"Entertainment", 48, "movies fun music gaming"},
	{"Events", 11, "events"},
	{"Finance", 55, "stocks crypto currency"},
	{"Financial", 24, "stocks currency payments"},
	{"Food", 17, "recipes restaurants"},
	{"Gaming", 27, "gaming"},
	{"Health_and_Fitness", 16, "health"},
	{"Jobs", 8, "jobs"},
	{"Location", 20, "geo restaurants"},
	{"Logistics", 9, "logistics"},
	{"Mapping", 14, "geo"},
	{"Media", 19, "news images movies"},
	{"Medical", 9, "health"},
	{"Monitoring", 10, "monitoring"},
	{"Movies", 12, "movies"},
	{"Music", 20, "music"},
	{"News_Media", 36, "news"},
	{"Other", 32, "fun business search"},
	{"Payments", 9, "payments"},
	{"Reward", 3, "payments"},
	{"Science", 9, "education"},
	{"Search", 16, "search"},
	{"SMS", 13, "sms"},
	{"Social", 33, "social"},
	{"Sports", 60, "football basketball"},
	{"Storage", 5, "storage"},
	{"Text_Analysis", 23, "text"},
	{"Tools", 80, "ip text images monitoring geo"},
	{"Transportation", 9, "logistics flights"},
	{"Translation", 11, "text"},
	{"Travel", 28, "hotels flights geo"},
	{"Video_Images", 26, "images"},
	{"Visual_Recognition", 8, "images"},
	{"Weather", 12, "weather"},
}

var domains = buildDomains()

var domainByKey = func() map[string]*domain {
	m := map[string]*domain{}
	for _, d := range domains {
		m[d.Key] = d
	}
	return m
}()

func buildDomains() []*domain {
	out := make([]*domain, 0, len(domainSpecs))
	for _, s := range domainSpecs {
		d := &domain{Key: s.key, Topic: s.topic, Stems: strings.Split(s.stems, "|")}
		byOne := map[string]int{}
		for _, line := range s.entities {
			parts := strings.Fields(line)
			one, many, _ := strings.Cut(parts[0], "/")
			e := &entity{One: one, Many: many}
			for _, p := range parts[1:] {
				e.Fields = append(e.Fields, parseField(p))
			}
			if extra, ok := s.search[one]; ok {
				for _, p := range strings.Fields(extra) {
					e.Search = append(e.Search, parseField(p))
				}
			}
			byOne[one] = len(d.Entities)
			d.Entities = append(d.Entities, e)
		}
		for _, r := range strings.Fields(s.rels) {
			p, c, _ := strings.Cut(r, ">")
			pi, ok1 := byOne[p]
			ci, ok2 := byOne[c]
			if !ok1 || !ok2 {
				panic(fmt.Sprintf("tbgen: domain %s: relation %s names an unknown entity", s.key, r))
			}
			d.Rels = append(d.Rels, [2]int{pi, ci})
		}
		out = append(out, d)
	}
	return out
}

func parseField(p string) field {
	name, spec, ok := strings.Cut(p, ":")
	if !ok {
		panic("tbgen: field without a kind: " + p)
	}
	f := field{Name: name}
	if strings.HasSuffix(name, "*") {
		f.Name, f.Lookup = strings.TrimSuffix(name, "*"), true
	}
	k, enum, _ := strings.Cut(spec, "=")
	kk, ok := kindNames[k]
	if !ok {
		panic("tbgen: unknown kind " + k)
	}
	f.Kind = kk
	if enum != "" {
		f.Enum = strings.Split(enum, "|")
	}
	return f
}
