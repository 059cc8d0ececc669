package dataset

import "regexp"

// earlierTurnRE finds words that speak of an earlier turn of the
// conversation: what the assistant found, showed or said before, what
// user and assistant discussed, or a thing pointed at as already known
// ("that hotel", "this recipe") with nothing in the text to say which.
var earlierTurnRE = regexp.MustCompile(`(?i)\b(you (just |already |earlier )?(found|showed|shown|listed|mentioned|looked up|gave|sent|pulled|fetched|suggested|recommended|started|said|told)|(in|from|on) your (list|results|search)|we (talked|spoke|discussed)|earlier you|from that list|a minute ago|(that|this) (hotel|flight|story|recipe|place|itinerary|attraction|article|destination|search|session|one))\b`)

// EarlierTurn returns the words of a text that speak of an earlier turn
// of the conversation ("the hotel you just showed me"), or "" when it
// speaks of none. Such an instruction must carry that turn (History), or
// the agent is asked about a conversation it never saw.
func EarlierTurn(text string) string {
	return earlierTurnRE.FindString(text)
}
