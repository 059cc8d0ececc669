package world

// Read-only views of world parts for agents that answer from general
// knowledge (the baseline): the facts a model would carry, from the same
// world the stand-ins serve, so no one re-reads the fixture files.

// ClimateNormals are a city's monthly climate normals, January first.
type ClimateNormals struct {
	HighC    [12]float64 // mean daily high, °C
	LowC     [12]float64 // mean daily low, °C
	RainDays [12]float64 // days with rain
	Humidity float64     // mean relative humidity, %
}

// Climate returns the monthly normals of a city by id.
func (w *World) Climate(cityID string) (ClimateNormals, bool) {
	n, ok := w.Normals.Cities[cityID]
	if !ok || n == nil {
		return ClimateNormals{}, false
	}
	return ClimateNormals{HighC: n.HighC, LowC: n.LowC, RainDays: n.RainDays, Humidity: n.Humidity}, true
}

// Phrasebook returns the phrasebook's entries: language code → text, each
// with English ("en"). The slice and maps are shared: do not modify them.
func (w *World) Phrasebook() []map[string]string {
	return w.Basic.Phrases.Entries
}
