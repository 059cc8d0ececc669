// Package travel holds the stand-ins of the travel scenario of the built-in
// toolset: flights, hotels, attractions, currencies, airports, ISO codes,
// geocoding.
package travel

import "github.com/understudy/understudy/mocks/standin"

// Register adds the stand-ins of the travel scenario to r: one per API of
// each tool whose x-scenario is travel. Registration is explicit, so a
// registry holds exactly what its owner asked for.
func Register(r *standin.Registry) {
	// geocoding
	r.Add("geocoding", "forward_geocode", handleForwardGeocode)
	r.Add("geocoding", "reverse_geocode", handleReverseGeocode)

	// iso_codes
	r.AddPure("iso_codes", "language_codes", handleLanguageCodes)
	r.AddPure("iso_codes", "country_codes", handleCountryCodes)
	r.Add("iso_codes", "country_by_code", handleCountryByCode)

	// travel_advisor
	r.AddPure(taTool, "locations_search", taLocationsSearch)
	r.AddPure(taTool, "attractions_list", taAttractionsList)
	r.Add(taTool, "attractions_get_details", taAttractionDetails)
	r.AddPure(taTool, "photos_list", taPhotosList)
	r.AddPure(taTool, "reviews_list", taReviewsList)

	// airport_info
	r.Add(apTool, "airport", apAirport)
	r.Add(apTool, "nearby_airports", apNearby)

	// booking_com
	r.Add(bkTool, "search_hotel_destination", bkSearchDestination)
	r.AddPure(bkTool, "search_hotels", bkSearchHotels)
	r.AddPure(bkTool, "get_hotel_details", bkHotelDetails)
	r.AddPure(bkTool, "get_room_list", bkRoomList)
	r.AddPure(bkTool, "get_hotel_reviews", bkHotelReviews)
	r.Add(bkTool, "get_hotel_photos", bkHotelPhotos)

	// currency_exchange
	r.Add(fxTool, "exchange", fxExchange)
	r.Add(fxTool, "listquotes", fxListQuotes)

	// skyscanner80
	r.Add(skyTool, "flights_auto_complete", skyAutoComplete)
	r.Add(skyTool, "flights_search_one_way", skySearchOneWay)
	r.Add(skyTool, "flights_search_roundtrip", skySearchRoundtrip)
	r.Add(skyTool, "flights_search_incomplete", skySearchIncomplete)
	r.Add(skyTool, "flights_detail", skyDetail)
	r.AddPure(skyTool, "get_config", skyGetConfig)
}
