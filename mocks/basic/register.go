// Package basic holds the stand-ins of the basic scenario of the built-in
// toolset: web search, a Python interpreter and a calculator, translation, IP
// location, the user, clocks.
package basic

import "github.com/understudy/understudy/mocks/standin"

// Register adds the stand-ins of the basic scenario to r: one per API of
// each tool whose x-scenario is basic. Registration is explicit, so a
// registry holds exactly what its owner asked for.
func Register(r *standin.Registry) {
	// calculator
	r.Add("calculator", "calculate", handleCalculate)
	r.Add("python_interpreter", "run_python", handleRunPython)

	// ip_geolocation
	r.Add("ip_geolocation", "lookup_ip", handleLookupIP)
	r.Add("ip_geolocation", "get_client_ip", handleClientIP)

	// agent_clock
	r.Add("agent_clock", "get_current_time", handleCurrentTime)
	r.Add("world_time", "timezone_info", handleTimezoneInfo)
	r.Add("world_time", "timezone_by_location", handleTimezoneByLocation)

	// google_translate
	r.Add("google_translate", "translate", handleTranslate)
	r.Add("google_translate", "detect_language", handleDetectLanguage)
	r.AddPure("google_translate", "supported_languages", handleSupportedLanguages)

	// user_info
	r.Add("user_info", "get_user_profile", handleUserProfile)
	r.Add("user_info", "get_user_location", handleUserLocation)

	// web_search
	r.Add("web_search", "web_search", handleWebSearch)
	r.Add("web_search", "video_search", handleVideoSearch)
	r.Add("web_search", "news_search", handleNewsSearchGoogle)

	// web_search
	r.Add("web_search", "image_search", imageSearch)
}
