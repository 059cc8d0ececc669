package basic

import "github.com/understudy/understudy/mocks/standin"

// Register adds the stand-ins of the basic scenario of the built-in toolset (web search, code and arithmetic, translation, IP location, the user, clocks) to r.
func Register(r *standin.Registry) {
	// basic_compute.go
	r.Add("calculator", "calculate", handleCalculate)
	r.Add("python_interpreter", "run_python", handleRunPython)

	// basic_ip.go
	r.Add("ip_geolocation", "lookup_ip", handleLookupIP)
	r.Add("ip_geolocation", "get_client_ip", handleClientIP)

	// basic_time.go
	r.Add("agent_clock", "get_current_time", handleCurrentTime)
	r.Add("world_time", "timezone_info", handleTimezoneInfo)
	r.Add("world_time", "timezone_by_location", handleTimezoneByLocation)

	// basic_translate.go
	r.Add("google_translate", "translate", handleTranslate)
	r.Add("google_translate", "detect_language", handleDetectLanguage)
	r.Add("google_translate", "supported_languages", handleSupportedLanguages)

	// basic_user.go
	r.Add("user_info", "get_user_profile", handleUserProfile)
	r.Add("user_info", "get_user_location", handleUserLocation)

	// basic_websearch.go
	r.Add("web_search", "web_search", handleWebSearch)
	r.Add("web_search", "video_search", handleVideoSearch)
	r.Add("web_search", "news_search", handleNewsSearchGoogle)

	// image_websearch.go
	r.Add("web_search", "image_search", imageSearch)
}
