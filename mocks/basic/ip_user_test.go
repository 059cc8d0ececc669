package basic

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/world"
)

func TestBasicIPGeolocation(t *testing.T) {
	ip := standintest.New(t, Register).WithDefaults().Object("ip_geolocation", "get_client_ip", nil)["ip"]
	loc := standintest.New(t, Register).WithDefaults().Object("user_info", "get_user_location", nil)["data"].(map[string]any)
	require.Equal(t, loc["ip"], ip, "get_client_ip and the user's location agree")

	r := standintest.New(t, Register).WithDefaults().Object("ip_geolocation", "lookup_ip", map[string]any{"ip": ip})
	require.Equal(t, true, r["success"])
	require.Equal(t, loc["city"], r["city"])
	require.Equal(t, loc["lat"], r["latitude"])
	require.Equal(t, "EUR", r["currency_code"])
	require.Equal(t, "IPv4", r["type"])

	for _, tc := range []struct{ ip, city, isp string }{
		{"8.8.8.8", "San Francisco", "Google LLC"},
		{"2001:4860:4860::8888", "San Francisco", "Google LLC"},
		{"73.16.1.1", "Boston", "Comcast Cable Communications, LLC"},
		{"2001:8a0:1000::1", "Lisbon", "MEO - Servicos De Comunicacoes E Multimedia S.A."},
	} {
		r := standintest.New(t, Register).WithDefaults().Object("ip_geolocation", "lookup_ip", map[string]any{"ip": tc.ip})
		require.Equal(t, true, r["success"], tc.ip)
		require.Equal(t, tc.city, r["city"], tc.ip)
		require.Equal(t, tc.isp, r["isp"], tc.ip)
	}
	// Every range of the table resolves to its own city.
	b := standintest.World(t).Basic
	for _, rg := range append(append([]*world.IPRange{}, b.IPv4...), b.IPv6...) {
		got := b.LookupIP(rg.Prefix.Addr().Next())
		require.Same(t, rg, got, rg.CIDR)
	}
	// Unknown public addresses land somewhere stable, the same for a whole /16.
	a := standintest.New(t, Register).WithDefaults().Object("ip_geolocation", "lookup_ip", map[string]any{"ip": "151.101.1.1"})
	c := standintest.New(t, Register).WithDefaults().Object("ip_geolocation", "lookup_ip", map[string]any{"ip": "151.101.200.9"})
	require.Equal(t, a["city"], c["city"])
	require.Equal(t, true, a["success"])

	for _, tc := range []struct{ ip, msg string }{
		{"192.168.1.10", "reserved range"},
		{"10.0.0.1", "reserved range"},
		{"127.0.0.1", "reserved range"},
		{"::1", "reserved range"},
		{"2001:db8::1", "reserved range"},
		{"203.0.113.5", "reserved range"},
		{"999.1.1.1", "Invalid IP address"},
		{"hello", "Invalid IP address"},
	} {
		r := standintest.New(t, Register).WithDefaults().Object("ip_geolocation", "lookup_ip", map[string]any{"ip": tc.ip})
		require.Equal(t, false, r["success"], tc.ip)
		require.Equal(t, tc.msg, r["message"], tc.ip)
	}
	standintest.GoldenCalls(t, "ip_geolocation.json", standintest.New(t, Register).WithDefaults(), []standintest.Case{
		{Name: "client_ip", Tool: "ip_geolocation", API: "get_client_ip", Args: nil},
		{Name: "lookup_default", Tool: "ip_geolocation", API: "lookup_ip", Args: nil},
		{Name: "lookup_ipv6", Tool: "ip_geolocation", API: "lookup_ip", Args: map[string]any{"ip": "2400:4050:10:1::1"}},
		{Name: "lookup_fallback", Tool: "ip_geolocation", API: "lookup_ip", Args: map[string]any{"ip": "151.101.1.1"}},
		{Name: "lookup_reserved", Tool: "ip_geolocation", API: "lookup_ip", Args: map[string]any{"ip": "172.16.0.1"}},
		{Name: "lookup_invalid", Tool: "ip_geolocation", API: "lookup_ip", Args: map[string]any{"ip": "1.2.3"}},
	})
}

func TestBasicUserInfo(t *testing.T) {
	p := standintest.New(t, Register).WithDefaults().Object("user_info", "get_user_profile", nil)["data"].(map[string]any)
	require.Equal(t, "Ana Ferreira", p["name"])
	require.Equal(t, "EUR", p["currency"])
	require.Equal(t, "Europe/Lisbon", p["timezone"])
	home := p["home_city"].(map[string]any)
	require.Equal(t, "lisbon", home["id"])

	w := standintest.World(t)
	city, _ := w.CityByID("lisbon")
	loc := standintest.New(t, Register).WithDefaults().Object("user_info", "get_user_location", nil)["data"].(map[string]any)
	require.Equal(t, city.Lat, loc["lat"])
	require.Equal(t, city.TimeZone, loc["timezone"])
	require.Equal(t, "2025-06-02T10:00:00+01:00", loc["local_time"])
	_, err := netip.ParseAddr(loc["ip"].(string))
	require.NoError(t, err)

	standintest.GoldenCalls(t, "user_info.json", standintest.New(t, Register).WithDefaults(), []standintest.Case{
		{Name: "profile", Tool: "user_info", API: "get_user_profile", Args: nil},
		{Name: "location", Tool: "user_info", API: "get_user_location", Args: nil},
	})
}

func BenchmarkBasicLookupIP(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "ip_geolocation", "lookup_ip", nil)
}

func BenchmarkBasicUserProfile(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "user_info", "get_user_profile", nil)
}
