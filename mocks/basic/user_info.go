package basic

import (
	"context"
	"maps"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
)

// Stand-in for user_info (own): the one user of the sandbox, consistent
// with the world (home city, currency, time zone) and with ip_geolocation
// (the location's IP is the one get_client_ip reports).

func handleUserProfile(_ context.Context, w *world.World, _ *standin.Call) (any, error) {
	u := w.Basic.User
	country, _ := w.Country(u.Home.Country)
	address := maps.Clone(u.AddressFields)
	delete(address, "city_id")
	address["city"] = u.Home.Name
	address["region"] = u.Home.Region
	address["country"] = country.Name
	address["country_code"] = country.Alpha2
	languages := make([]any, len(u.Languages))
	for i, l := range u.Languages {
		languages[i] = l
	}
	return map[string]any{"data": map[string]any{
		"user_id":      u.UserID,
		"username":     u.Username,
		"name":         u.Name,
		"first_name":   u.FirstName,
		"last_name":    u.LastName,
		"email":        u.Email,
		"phone":        u.Phone,
		"birth_date":   u.BirthDate,
		"occupation":   u.Occupation,
		"home_city":    map[string]any{"id": u.Home.ID, "name": u.Home.Name, "country": country.Name, "country_code": country.Alpha2},
		"address":      address,
		"language":     u.Language,
		"languages":    languages,
		"currency":     u.Currency,
		"timezone":     u.TimeZone,
		"member_since": u.MemberSince,
		"preferences":  u.PrefFields,
	}}, nil
}

func handleUserLocation(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	u := w.Basic.User
	city := u.Here
	country, _ := w.Country(city.Country)
	t := c.Now.In(city.Location())
	_, off := t.Zone()
	return map[string]any{"data": map[string]any{
		"city":         city.Name,
		"city_id":      city.ID,
		"region":       city.Region,
		"country":      country.Name,
		"country_code": country.Alpha2,
		"lat":          city.Lat,
		"lon":          city.Lon,
		"timezone":     city.TimeZone,
		"utc_offset":   tzOffsetString(off, false),
		"local_time":   t.Format("2006-01-02T15:04:05-07:00"),
		"ip":           u.Location.IP,
		"source":       u.Location.Source,
		"accuracy_km":  u.Location.AccuracyKm,
	}}, nil
}
