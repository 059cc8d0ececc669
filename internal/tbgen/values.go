package tbgen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Pools of realistic values. Names of people, teams, titles and
// companies are invented; places, currencies and codes are real.
var (
	poolFirst    = strings.Fields("Emma Liam Olivia Noah Ava Lucas Mia Mateo Sofia Arjun Yuki Chen Fatima Omar Lena Jonas Chloe Diego Aisha Kenji Nadia Pablo Ingrid Tomas Priya Hugo Elena Marco Zara Felix")
	poolLast     = strings.Fields("Silva Novak Tanaka Okafor Müller Rossi Dubois Kowalski Haddad Larsen Moreau Petrov Nguyen García Schmidt Costa Andersen Ibrahim Walsh Fischer Romero Bauer Jensen Lopez Sato")
	poolCities   = []string{"London", "Paris", "Berlin", "Madrid", "Rome", "Lisbon", "Amsterdam", "Vienna", "Prague", "Warsaw", "Stockholm", "Oslo", "Dublin", "New York", "Chicago", "San Francisco", "Austin", "Toronto", "Mexico City", "São Paulo", "Buenos Aires", "Tokyo", "Osaka", "Seoul", "Singapore", "Bangkok", "Mumbai", "Dubai", "Istanbul", "Cairo", "Nairobi", "Lagos", "Cape Town", "Sydney", "Melbourne", "Auckland"}
	poolCityGeo  = [][2]float64{{51.5074, -0.1278}, {48.8566, 2.3522}, {52.52, 13.405}, {40.4168, -3.7038}, {41.9028, 12.4964}, {38.7223, -9.1393}, {52.3676, 4.9041}, {48.2082, 16.3738}, {50.0755, 14.4378}, {52.2297, 21.0122}, {59.3293, 18.0686}, {59.9139, 10.7522}, {53.3498, -6.2603}, {40.7128, -74.006}, {41.8781, -87.6298}, {37.7749, -122.4194}, {30.2672, -97.7431}, {43.6532, -79.3832}, {19.4326, -99.1332}, {-23.5505, -46.6333}, {-34.6037, -58.3816}, {35.6762, 139.6503}, {34.6937, 135.5023}, {37.5665, 126.978}, {1.3521, 103.8198}, {13.7563, 100.5018}, {19.076, 72.8777}, {25.2048, 55.2708}, {41.0082, 28.9784}, {30.0444, 31.2357}, {-1.2921, 36.8219}, {6.5244, 3.3792}, {-33.9249, 18.4241}, {-33.8688, 151.2093}, {-37.8136, 144.9631}, {-36.8485, 174.7633}}
	poolCountry  = []string{"United Kingdom", "France", "Germany", "Spain", "Italy", "Portugal", "Netherlands", "Austria", "Czech Republic", "Poland", "Sweden", "Norway", "Ireland", "United States", "Canada", "Mexico", "Brazil", "Argentina", "Japan", "South Korea", "Singapore", "Thailand", "India", "United Arab Emirates", "Turkey", "Egypt", "Kenya", "Nigeria", "South Africa", "Australia", "New Zealand"}
	poolCC       = []string{"GB", "FR", "DE", "ES", "IT", "PT", "NL", "AT", "CZ", "PL", "SE", "NO", "IE", "US", "CA", "MX", "BR", "AR", "JP", "KR", "SG", "TH", "IN", "AE", "TR", "EG", "KE", "NG", "ZA", "AU", "NZ"}
	poolCurrency = strings.Fields("USD EUR GBP JPY CHF CAD AUD CNY INR BRL MXN SEK NOK PLN TRY ZAR SGD KRW AED NZD")
	poolTeams    = []string{"Northbridge United", "Real Costa FC", "Riverside Rovers", "Atlético Solana", "Eastfield City", "Borussia Lindau", "Sporting Alvor", "Kingsport Albion", "Inter Valmonte", "Dynamo Karelia", "Harbor Town FC", "Olympique Sable", "Lakeside Wanderers", "Ajax Vermeer", "Racing Ostrava", "Seaview Falcons", "Metro Thunder", "Desert Suns", "Bay City Waves", "Mountain Lynx"}
	poolLeagues  = []string{"Premier Division", "Liga Nacional", "Bundesliga Nord", "Serie Uno", "Ligue Atlantique", "Champions Cup", "Continental League", "Super League", "Eredivisie Oost", "Primeira Divisão"}
	poolTitles   = []string{"The Silent River", "Midnight in Lisbon", "Echoes of Tomorrow", "Paper Kingdoms", "The Last Lighthouse", "Blue Horizon", "A Winter Garden", "Iron Sparrow", "City of Glass", "The Long Road North", "Golden Hour", "Small Wonders", "The Cartographer", "Neon Tides", "Hollow Crown", "Falling Upward", "Salt and Stone", "The Quiet Year", "Starlight Express", "Wild Orchard"}
	poolWords    = strings.Fields("alpha bravo delta nova orbit pixel quantum summit vertex zenith amber cobalt ember harbor lumen maple onyx prism sierra tundra")
	poolCompany  = []string{"Bluefin Analytics", "Northwind Labs", "Acme Data Corp", "Helios Systems", "Brightpath Ltd", "Quantum Leaf", "Silverline Media", "Redwood Capital", "Nimbus Cloud", "Atlas Logistics", "Pioneer Health", "Lighthouse Software", "Crescent Foods", "Evergreen Energy", "Copperfield & Co", "Vantage Retail"}
	poolLang     = strings.Fields("en fr de es it pt nl sv ja ko zh ar hi tr pl")
	poolSymbol   = strings.Fields("AAPL MSFT GOOGL AMZN TSLA NVDA META NFLX JPM V KO PEP NKE DIS SAP ASML BABA TSM")
	poolCoin     = strings.Fields("BTC ETH SOL ADA XRP DOT DOGE AVAX MATIC LTC LINK ATOM XLM UNI")
	poolAirline  = []string{"SkyBridge Airways", "Atlantic Star", "Pacific Crest Air", "Nordic Wings", "Sunline Express", "Aero Meridian"}
	poolIATA     = strings.Fields("LHR CDG FRA MAD FCO LIS AMS VIE JFK ORD SFO YYZ MEX GRU HND ICN SIN BKK BOM DXB IST SYD")
	poolHotel    = []string{"Grand Plaza Hotel", "Harbour View Inn", "The Linden Suites", "Hotel Aurora", "Riverside Lodge", "Palazzo Verde", "Seaside Resort & Spa", "City Central Hotel", "The Old Mill Guesthouse", "Skyline Tower Hotel"}
	poolCuisine  = strings.Fields("italian mexican japanese indian thai french chinese greek spanish vietnamese korean lebanese")
	poolIngr     = []string{"chicken breast", "basmati rice", "tomatoes", "olive oil", "garlic", "spinach", "chickpeas", "salmon", "mozzarella", "avocado", "quinoa", "mushrooms", "lentils", "ginger", "coconut milk"}
	poolJob      = []string{"Software Engineer", "Data Analyst", "Product Manager", "Registered Nurse", "UX Designer", "Accountant", "Marketing Manager", "DevOps Engineer", "Sales Associate", "Teacher", "Electrician", "Data Scientist"}
	poolProduct  = []string{"wireless earbuds", "blue cotton blanket", "stainless steel pan", "running shoes", "4K monitor", "mechanical keyboard", "yoga mat", "espresso machine", "smart watch", "LED desk lamp", "backpack", "water bottle"}
	poolBrand    = strings.Fields("Acme Zenith Orion Nordika Vela Kestrel Lumio Brava Solis Trekka")
	poolGenre    = strings.Fields("drama comedy thriller action documentary horror romance sci-fi jazz rock pop hip-hop fantasy mystery")
	poolVenue    = []string{"Riverside Arena", "Old Town Hall", "Harbour Stadium", "The Blue Note Club", "Central Park Pavilion", "Grand Theatre", "Café Lumière", "Trattoria Nonna", "Sakura Garden", "Union Square Market"}
	poolStreet   = []string{"Baker Street", "Rue de Rivoli", "Unter den Linden", "Gran Vía", "Via del Corso", "Avenida da Liberdade", "Kalverstraat", "Fifth Avenue", "King Street West", "Orchard Road", "Shibuya Crossing", "George Street"}
	poolTZ       = []string{"Europe/London", "Europe/Paris", "Europe/Berlin", "America/New_York", "America/Chicago", "America/Los_Angeles", "Asia/Tokyo", "Asia/Singapore", "Asia/Dubai", "Australia/Sydney"}
	poolColor    = strings.Fields("black white silver red blue green grey")
	poolDomains  = []string{"example.com", "bluefin-analytics.io", "northwindlabs.com", "acme-data.net", "helios.systems", "brightpath.co.uk", "nimbus.cloud", "atlas-logistics.com"}
	poolSentence = []string{
		"Great value and friendly staff, would come back again.",
		"The quality exceeded my expectations in every way.",
		"Fast delivery but the packaging could be better.",
		"An inspiring story told with remarkable care.",
		"Not bad overall, though a little overpriced.",
		"Absolutely loved it, highly recommended to everyone.",
		"Simple, reliable and easy to set up in minutes.",
		"The best decision is the one you make today.",
	}
	poolDuration = []string{"PT25M", "PT45M", "PT1H30M", "3:45", "2h 15m", "12 weeks", "6 hours", "4:12"}
)

// gen draws values of every kind from one random stream.
type gen struct{ r *rand.Rand }

func (g gen) pick(pool []string) string { return pool[g.r.IntN(len(pool))] }
func (g gen) chance(p float64) bool     { return g.r.Float64() < p }
func (g gen) between(lo, hi int) int    { return lo + g.r.IntN(hi-lo+1) }

func round(f float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(f*p) / p
}

func (g gen) date() string {
	return fmt.Sprintf("2024-%02d-%02d", g.between(1, 12), g.between(1, 28))
}

// value is an example value of a field; idStyle says whether IDs are
// numbers (true) or strings.
func (g gen) value(f field, numericIDs bool) any {
	switch f.Kind {
	case kID:
		if numericIDs {
			return g.between(100, 999999)
		}
		const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
		b := make([]byte, 10)
		for i := range b {
			b[i] = alnum[g.r.IntN(len(alnum))]
		}
		return string(b)
	case kPerson:
		return g.pick(poolFirst) + " " + g.pick(poolLast)
	case kUsername:
		return strings.ToLower(g.pick(poolFirst)) + fmt.Sprintf("_%d", g.between(1, 999))
	case kTeam:
		return g.pick(poolTeams)
	case kLeague:
		return g.pick(poolLeagues)
	case kTitle:
		return g.pick(poolTitles)
	case kText:
		return g.pick(poolSentence)
	case kWord:
		return g.pick(poolWords)
	case kInt:
		return g.between(1, 120)
	case kCount:
		return g.between(0, 250000)
	case kFloat:
		return round(g.r.Float64()*100, 2)
	case kPrice:
		return round(1+g.r.Float64()*999, 2)
	case kCurrency:
		return g.pick(poolCurrency)
	case kCity:
		return g.pick(poolCities)
	case kCountry:
		return g.pick(poolCountry)
	case kCountryCode:
		return g.pick(poolCC)
	case kLat:
		return poolCityGeo[g.r.IntN(len(poolCityGeo))][0]
	case kLng:
		return poolCityGeo[g.r.IntN(len(poolCityGeo))][1]
	case kDate:
		return g.date()
	case kDateTime:
		return fmt.Sprintf("%sT%02d:%02d:00Z", g.date(), g.between(0, 23), g.between(0, 59))
	case kTime:
		return fmt.Sprintf("%02d:%02d", g.between(0, 23), 15*g.between(0, 3))
	case kURL:
		return "https://www." + g.pick(poolDomains) + "/" + g.pick(poolWords)
	case kImage:
		return fmt.Sprintf("https://cdn.%s/img/%s_%d.jpg", g.pick(poolDomains), g.pick(poolWords), g.between(1, 9999))
	case kEmail:
		return strings.ToLower(g.pick(poolFirst)) + "." + strings.ToLower(asciiOnly(g.pick(poolLast))) + "@" + g.pick(poolDomains)
	case kPhone:
		return fmt.Sprintf("+%d%09d", g.between(1, 49), g.between(100000000, 999999999))
	case kBool:
		return g.chance(0.5)
	case kRating:
		return round(1+g.r.Float64()*4, 1)
	case kPercent:
		return round(g.r.Float64()*100, 1)
	case kEnum:
		return g.pick(f.Enum)
	case kYear:
		return g.between(1950, 2024)
	case kAddress:
		return fmt.Sprintf("%d %s", g.between(1, 250), g.pick(poolStreet))
	case kZip:
		return fmt.Sprintf("%05d", g.between(1000, 99999))
	case kLang:
		return g.pick(poolLang)
	case kSymbol:
		return g.pick(poolSymbol)
	case kCoin:
		return g.pick(poolCoin)
	case kTemp:
		return round(-10+g.r.Float64()*45, 1)
	case kCompany:
		return g.pick(poolCompany)
	case kDuration:
		return g.pick(poolDuration)
	case kScore:
		return fmt.Sprintf("%d-%d", g.between(0, 5), g.between(0, 5))
	case kIP:
		return fmt.Sprintf("%d.%d.%d.%d", g.between(11, 223), g.between(0, 255), g.between(0, 255), g.between(1, 254))
	case kDomain:
		return g.pick(poolDomains)
	case kIATA:
		return g.pick(poolIATA)
	case kAirline:
		return g.pick(poolAirline)
	case kHotel:
		return g.pick(poolHotel)
	case kCuisine:
		return g.pick(poolCuisine)
	case kIngredient:
		return g.pick(poolIngr)
	case kJob:
		return g.pick(poolJob)
	case kProduct:
		return g.pick(poolProduct)
	case kISBN:
		return fmt.Sprintf("978%010d", g.between(100000000, 999999999))
	case kVIN:
		return fmt.Sprintf("1HGCM%02d%d3A%06d", g.between(10, 99), g.between(1, 9), g.between(100000, 999999))
	case kTracking:
		return fmt.Sprintf("1Z%03dE%010d", g.between(100, 999), g.between(100000000, 999999999))
	case kTimezone:
		return g.pick(poolTZ)
	case kColor:
		return g.pick(poolColor)
	case kGenre:
		return g.pick(poolGenre)
	case kBrand:
		return g.pick(poolBrand)
	case kVenue:
		return g.pick(poolVenue)
	}
	return g.pick(poolWords)
}

func asciiOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 128:
			b.WriteRune(r)
		case r == 'ü':
			b.WriteString("ue")
		case r == 'í':
			b.WriteByte('i')
		}
	}
	return b.String()
}

// describe is a parameter or field description by meaning (~8 words).
func describe(f field, ent string, ex any) string {
	words := strings.ReplaceAll(f.Name, "_", " ")
	switch f.Kind {
	case kCity:
		return fmt.Sprintf("Name of the city, e.g. %v", ex)
	case kCountry:
		return "Full country name in English, e.g. " + fmt.Sprint(ex)
	case kCountryCode:
		return "Two-letter ISO 3166-1 country code (e.g. US, DE)"
	case kCurrency:
		return fmt.Sprintf("Three-letter ISO 4217 currency code, e.g. %v", ex)
	case kPrice:
		return fmt.Sprintf("The %s of the %s in the given currency", words, ent)
	case kLat:
		return "Latitude in decimal degrees (WGS84), e.g. 51.5074"
	case kLng:
		return "Longitude in decimal degrees (WGS84), e.g. -0.1278"
	case kDate:
		return fmt.Sprintf("The %s in YYYY-MM-DD format", words)
	case kDateTime:
		return fmt.Sprintf("The %s as an ISO 8601 timestamp (UTC)", words)
	case kTime:
		return "Time of day in 24-hour HH:MM format"
	case kEmail:
		return "The email address to use, e.g. " + fmt.Sprint(ex)
	case kPhone:
		return "Phone number in international E.164 format, e.g. " + fmt.Sprint(ex)
	case kBool:
		return fmt.Sprintf("Whether the %s is %s (true or false)", ent, words)
	case kEnum:
		return fmt.Sprintf("The %s of the %s. One of: %s", words, ent, strings.Join(f.Enum, ", "))
	case kLang:
		return "Language as a two-letter ISO 639-1 code, default en"
	case kSymbol:
		return "Stock ticker symbol, for example AAPL or MSFT"
	case kCoin:
		return "Cryptocurrency symbol such as BTC or ETH"
	case kRating:
		return fmt.Sprintf("The %s rating, from 1 to 5", ent)
	case kPercent:
		return fmt.Sprintf("The %s as a percentage (0-100)", words)
	case kYear:
		return fmt.Sprintf("The %s as a four-digit year, e.g. %v", words, ex)
	case kURL, kImage:
		return fmt.Sprintf("The %s (an absolute URL)", words)
	case kIP:
		return "An IPv4 or IPv6 address, e.g. " + fmt.Sprint(ex)
	case kDomain:
		return "A domain name without protocol, e.g. " + fmt.Sprint(ex)
	case kIATA:
		return "Three-letter IATA airport code, e.g. " + fmt.Sprint(ex)
	case kPerson:
		return fmt.Sprintf("Full name of the %s", strings.TrimSuffix(words, " name"))
	case kTemp:
		return fmt.Sprintf("The %s in degrees Celsius", words)
	case kInt, kCount:
		return fmt.Sprintf("The number of %s", words)
	}
	return fmt.Sprintf("The %s of the %s, e.g. %v", words, ent, ex)
}
