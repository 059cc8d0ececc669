package daily

import "github.com/understudy/understudy/mocks/standin"

// Register adds the stand-ins of the daily-life scenario (weather, news, public holidays, calendars, recipes) to r.
func Register(r *standin.Registry) {
	// daily_calendar.go
	r.Add("calendar_tools", "check_month_calendar", handleMonthCalendar)
	r.Add("calendar_tools", "day_of_week", handleDayOfWeek)

	// daily_holidays.go
	r.Add("public_holiday", "public_holidays", handlePublicHolidays)
	r.Add("public_holiday", "available_countries", handleAvailableCountries)
	r.Add("public_holiday", "long_weekends", handleLongWeekends)

	// daily_news.go
	r.Add("real_time_news_data", "search", handleNewsSearch)
	r.Add("real_time_news_data", "top_headlines", handleTopHeadlines)
	r.Add("real_time_news_data", "topic_headlines", handleTopicHeadlines)
	r.Add("real_time_news_data", "full_story_coverage", handleFullStoryCoverage)

	// daily_openweather.go
	r.Add("open_weather", "city_weather", handleOWCity)
	r.Add("open_weather", "five_day_forecast", handleOWFiveDay)

	// daily_tasty.go
	r.Add("tasty", "recipes_auto_complete", handleTastyAutoComplete)
	r.Add("tasty", "recipes_list", handleTastyList)
	r.Add("tasty", "recipes_get_more_info", handleTastyMoreInfo)
	r.Add("tasty", "recipes_list_similarities", handleTastySimilar)
	r.Add("tasty", "tips_list", handleTastyTips)

	// daily_weatherapi.go
	r.Add("weatherapi_com", "realtime_weather_api", handleWARealtime)
	r.Add("weatherapi_com", "forecast_weather_api", handleWAForecast)
	r.Add("weatherapi_com", "astronomy_api", handleWAAstronomy)
	r.Add("weatherapi_com", "search_autocomplete_api", handleWASearch)
	r.Add("weatherapi_com", "time_zone_api", handleWATimeZone)
}
