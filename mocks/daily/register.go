// Package daily holds the stand-ins of the daily-life scenario of the
// built-in toolset: weather, news, public holidays, calendars, recipes.
package daily

import "github.com/understudy/understudy/mocks/standin"

// Register adds the stand-ins of the daily-life scenario to r: one per API of
// each tool whose x-scenario is daily_life. Registration is explicit, so a
// registry holds exactly what its owner asked for.
func Register(r *standin.Registry) {
	// calendar_tools
	r.Add("calendar_tools", "check_month_calendar", handleMonthCalendar)
	r.Add("calendar_tools", "day_of_week", handleDayOfWeek)

	// public_holiday
	r.Add("public_holiday", "public_holidays", handlePublicHolidays)
	r.Add("public_holiday", "available_countries", handleAvailableCountries)
	r.Add("public_holiday", "long_weekends", handleLongWeekends)

	// real_time_news_data
	r.AddPure("real_time_news_data", "search", handleNewsSearch)
	r.AddPure("real_time_news_data", "top_headlines", handleTopHeadlines)
	r.AddPure("real_time_news_data", "topic_headlines", handleTopicHeadlines)
	r.AddPure("real_time_news_data", "full_story_coverage", handleFullStoryCoverage)

	// open_weather
	r.Add("open_weather", "city_weather", handleOWCity)
	r.AddPure("open_weather", "five_day_forecast", handleOWFiveDay)

	// tasty
	r.Add("tasty", "recipes_auto_complete", handleTastyAutoComplete)
	r.AddPure("tasty", "recipes_list", handleTastyList)
	r.AddPure("tasty", "recipes_get_more_info", handleTastyMoreInfo)
	r.AddPure("tasty", "recipes_list_similarities", handleTastySimilar)
	r.AddPure("tasty", "tips_list", handleTastyTips)

	// weatherapi_com
	r.Add("weatherapi_com", "realtime_weather_api", handleWARealtime)
	r.AddPure("weatherapi_com", "forecast_weather_api", handleWAForecast)
	r.AddPure("weatherapi_com", "astronomy_api", handleWAAstronomy)
	r.Add("weatherapi_com", "search_autocomplete_api", handleWASearch)
	r.Add("weatherapi_com", "time_zone_api", handleWATimeZone)
}
