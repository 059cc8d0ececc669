package shape

// classifyDomain tells the kinds of fields whose values come from a
// domain's vocabulary rather than from their type: a hashtag is a
// hashtag, a currency symbol a currency sign, a vendor a company; ok is
// false for every other field.
func classifyDomain(ws []string, f, jt string) (Kind, bool) {
	if jt == "integer" || jt == "number" || jt == "boolean" {
		return 0, false
	}
	last := ws[len(ws)-1]
	has := func(w string) bool {
		for _, x := range ws {
			if x == w {
				return true
			}
		}
		return false
	}
	switch {
	case last == "hashtag" || last == "hashtags" || f == "hashtag" || f == "hashtags":
		return Hashtag, true
	case (last == "symbol" || last == "sign") && (has("currency") || has("money")), f == "currencysymbol", f == "currencysign":
		return CurrencySign, true
	case f == "capital" || f == "capitalcity" || last == "capital":
		return Capital, true
	case f == "vin" || f == "vinnumber":
		return VIN, true
	case f == "bcc" || f == "replyto":
		return Email, true
	case last == "provider" || last == "vendor" || last == "manufacturer" || last == "distributor" || last == "sponsor" || last == "carrier" || last == "maker" || last == "supplier" || last == "merchant" || last == "broker" || last == "exchange" && !has("rate"):
		return Company, true
	case f == "eta" || (last == "delivery" && (has("estimated") || has("expected"))):
		return Date, true
	case f == "sentiment" || f == "conference" || f == "division" || f == "game" || f == "weather" || f == "mood" || f == "emotion":
		return Word, true
	}
	return 0, false
}
