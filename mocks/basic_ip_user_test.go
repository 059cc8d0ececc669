package mocks

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBasicIPGeolocation(t *testing.T) {
	ip := basicOK(t, "ip_geolocation", "get_client_ip", nil)["ip"]
	loc := basicOK(t, "user_info", "get_user_location", nil)["data"].(map[string]any)
	require.Equal(t, loc["ip"], ip, "get_client_ip and the user's location agree")

	r := basicOK(t, "ip_geolocation", "lookup_ip", map[string]any{"ip": ip})
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
		r := basicOK(t, "ip_geolocation", "lookup_ip", map[string]any{"ip": tc.ip})
		require.Equal(t, true, r["success"], tc.ip)
		require.Equal(t, tc.city, r["city"], tc.ip)
		require.Equal(t, tc.isp, r["isp"], tc.ip)
	}
	// Every range of the table resolves to its own city.
	b := basicWorldT(t).basic
	for _, rg := range append(append([]*basicIPRange{}, b.ipv4...), b.ipv6...) {
		got := b.lookupIP(rg.prefix.Addr().Next())
		require.Same(t, rg, got, rg.CIDR)
	}
	// Unknown public addresses land somewhere stable, the same for a whole /16.
	a := basicOK(t, "ip_geolocation", "lookup_ip", map[string]any{"ip": "151.101.1.1"})
	c := basicOK(t, "ip_geolocation", "lookup_ip", map[string]any{"ip": "151.101.200.9"})
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
		r := basicOK(t, "ip_geolocation", "lookup_ip", map[string]any{"ip": tc.ip})
		require.Equal(t, false, r["success"], tc.ip)
		require.Equal(t, tc.msg, r["message"], tc.ip)
	}
	basicGolden(t, "ip_geolocation", []basicCase{
		{"client_ip", "get_client_ip", nil},
		{"lookup_default", "lookup_ip", nil},
		{"lookup_ipv6", "lookup_ip", map[string]any{"ip": "2400:4050:10:1::1"}},
		{"lookup_fallback", "lookup_ip", map[string]any{"ip": "151.101.1.1"}},
		{"lookup_reserved", "lookup_ip", map[string]any{"ip": "172.16.0.1"}},
		{"lookup_invalid", "lookup_ip", map[string]any{"ip": "1.2.3"}},
	})
}

func TestBasicUserInfo(t *testing.T) {
	p := basicOK(t, "user_info", "get_user_profile", nil)["data"].(map[string]any)
	require.Equal(t, "Ana Ferreira", p["name"])
	require.Equal(t, "EUR", p["currency"])
	require.Equal(t, "Europe/Lisbon", p["timezone"])
	home := p["home_city"].(map[string]any)
	require.Equal(t, "lisbon", home["id"])

	w := basicWorldT(t)
	city, _ := w.CityByID("lisbon")
	loc := basicOK(t, "user_info", "get_user_location", nil)["data"].(map[string]any)
	require.Equal(t, city.Lat, loc["lat"])
	require.Equal(t, city.TimeZone, loc["timezone"])
	require.Equal(t, "2025-06-02T10:00:00+01:00", loc["local_time"])
	_, err := netip.ParseAddr(loc["ip"].(string))
	require.NoError(t, err)

	basicGolden(t, "user_info", []basicCase{
		{"profile", "get_user_profile", nil},
		{"location", "get_user_location", nil},
	})
}

func BenchmarkBasicLookupIP(b *testing.B) { basicBench(b, "ip_geolocation", "lookup_ip") }

func BenchmarkBasicUserProfile(b *testing.B) { basicBench(b, "user_info", "get_user_profile") }
