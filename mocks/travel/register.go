package travel

import "github.com/understudy/understudy/mocks/standin"

// Register adds the stand-ins of the travel scenario (flights, hotels, attractions, currencies, airports, ISO codes, geocoding) to r.
func Register(r *standin.Registry) {
	// basic_geocoding.go
	r.Add("geocoding", "forward_geocode", handleForwardGeocode)
	r.Add("geocoding", "reverse_geocode", handleReverseGeocode)

	// basic_iso.go
	r.Add("iso_codes", "language_codes", handleLanguageCodes)
	r.Add("iso_codes", "country_codes", handleCountryCodes)
	r.Add("iso_codes", "country_by_code", handleCountryByCode)

	// travel_advisor.go
	r.Add(taTool, "locations_search", taLocationsSearch)
	r.Add(taTool, "attractions_list", taAttractionsList)
	r.Add(taTool, "attractions_get_details", taAttractionDetails)
	r.Add(taTool, "photos_list", taPhotosList)
	r.Add(taTool, "reviews_list", taReviewsList)

	// travel_airport.go
	r.Add(apTool, "airport", apAirport)
	r.Add(apTool, "nearby_airports", apNearby)

	// travel_booking.go
	r.Add(bkTool, "search_hotel_destination", bkSearchDestination)
	r.Add(bkTool, "search_hotels", bkSearchHotels)
	r.Add(bkTool, "get_hotel_details", bkHotelDetails)
	r.Add(bkTool, "get_room_list", bkRoomList)
	r.Add(bkTool, "get_hotel_reviews", bkHotelReviews)
	r.Add(bkTool, "get_hotel_photos", bkHotelPhotos)

	// travel_currency.go
	r.Add(fxTool, "exchange", fxExchange)
	r.Add(fxTool, "listquotes", fxListQuotes)

	// travel_skyscanner.go
	r.Add(skyTool, "flights_auto_complete", skyAutoComplete)
	r.Add(skyTool, "flights_search_one_way", skySearchOneWay)
	r.Add(skyTool, "flights_search_roundtrip", skySearchRoundtrip)
	r.Add(skyTool, "flights_search_incomplete", skySearchIncomplete)
	r.Add(skyTool, "flights_detail", skyDetail)
	r.Add(skyTool, "get_config", skyGetConfig)
}
