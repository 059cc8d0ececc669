package deps

import (
	"sort"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// An entity is what a dependent value is: a travel_advisor location, a
// skyscanner80 place, a booking_com hotel. An edge names one API where its
// parameter's values come from, but an ID is valid wherever its entity is
// expected once any answer of the session carried it as that entity:
// locations_search lists Lisbon's attractions with their location_ids, so
// reviews_list takes one of them as well as one from attractions_list.
//
// An entity is named by the tool of the edge's source and the meaning of
// its path: the last field of the path, or the last two when the last is a
// generic name ("id", "code", "url": data[].id, itineraries[].id). Its
// carriers are the response fields of that tool's APIs with the same
// meaning: every edge's own source and path, and the fields the APIs'
// example responses hold that are named alike.

// Carrier is a response field that carries an entity's values: the values
// at Path in the responses of API.
type Carrier struct {
	API  string `json:"api"`
	Path string `json:"path"`
	// Origin is "source" (an edge reads it) or "inferred" (a field of an
	// example response named like the entity).
	Origin string `json:"origin"`
}

// Entity is one kind of dependent value and the fields that carry it.
type Entity struct {
	Name     string    `json:"name"` // "tool:meaning", e.g. "travel_advisor:location_id"
	Carriers []Carrier `json:"carriers"`
}

// genericLeaves are field names that say what a value is only with their
// parent: an "id" of itineraries is not an "id" of places.
var genericLeaves = map[string]bool{
	"id": true, "ids": true, "code": true, "key": true, "value": true, "name": true, "type": true,
	"url": true, "uri": true, "href": true, "link": true, "token": true, "uuid": true, "slug": true,
}

// meaning is the entity part of a path: its last field in lower case, or
// its last two when the last is generic; "" for an empty path.
func meaning(path string) string {
	var segs []string
	for _, s := range strings.Split(path, ".") {
		if s = strings.ToLower(strings.ReplaceAll(s, "[]", "")); s != "" {
			segs = append(segs, s)
		}
	}
	switch n := len(segs); {
	case n == 0:
		return ""
	case n >= 2 && genericLeaves[segs[n-1]]:
		return segs[n-2] + "." + segs[n-1]
	default:
		return segs[n-1]
	}
}

// entityOf names the entity of the values at path in the responses of
// the API with that ID, or "" when the path names none.
func entityOf(apiID, path string) string {
	m := meaning(path)
	if m == "" {
		return ""
	}
	tool, _, _ := strings.Cut(apiID, ".")
	return tool + ":" + m
}

// learnEntities names the entity of every edge and finds its carriers: the
// edges' sources, and the fields of the example responses of the source
// tool's APIs that mean the same. Only tools with an edge out of them have
// their examples read.
func (g *Graph) learnEntities(examples *exampleDocs) {
	g.entities = map[string]*Entity{}
	seen := map[string]map[Carrier]bool{}
	add := func(name string, c Carrier) {
		if seen[name] == nil {
			seen[name] = map[Carrier]bool{}
			g.entities[name] = &Entity{Name: name}
		}
		key := Carrier{API: c.API, Path: c.Path}
		if seen[name][key] {
			return
		}
		seen[name][key] = true
		g.entities[name].Carriers = append(g.entities[name].Carriers, c)
	}
	byTool := map[*toolset.Tool]map[string]string{} // tool → meaning → entity
	for i := range g.edges {
		e := &g.edges[i]
		name := entityOf(e.From, e.Path)
		if name == "" {
			continue
		}
		if _, err := parsePath(e.Path); err != nil {
			continue
		}
		e.Entity = name
		add(name, Carrier{API: e.From, Path: e.Path, Origin: "source"})
		src := g.apis[e.From]
		if src == nil || src.Tool == nil {
			continue
		}
		if byTool[src.Tool] == nil {
			byTool[src.Tool] = map[string]string{}
		}
		byTool[src.Tool][meaning(e.Path)] = name
	}
	for tool, names := range byTool {
		for _, a := range tool.APIs {
			doc, ok := examples.lookup(a.ID())
			if !ok {
				continue
			}
			leaves(doc, maxLeavesScanned, func(path string, _ any) {
				if name, ok := names[meaning(path)]; ok {
					if _, err := parsePath(path); err == nil {
						add(name, Carrier{API: a.ID(), Path: path, Origin: "inferred"})
					}
				}
			})
		}
	}
	for _, ent := range g.entities {
		sort.Slice(ent.Carriers, func(i, j int) bool {
			a, b := ent.Carriers[i], ent.Carriers[j]
			if a.API != b.API {
				return a.API < b.API
			}
			return a.Path < b.Path
		})
	}
	g.paramEntities = map[string][]string{}
	for _, e := range g.edges {
		if e.Entity == "" {
			continue
		}
		k := e.To + "\x00" + e.Param
		if !contains(g.paramEntities[k], e.Entity) {
			g.paramEntities[k] = append(g.paramEntities[k], e.Entity)
			sort.Strings(g.paramEntities[k])
		}
	}
}

// Entities returns every entity with its carriers, sorted by name.
func (g *Graph) Entities() []Entity {
	out := make([]Entity, 0, len(g.entities))
	for _, e := range g.entities {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// EntitiesOf returns the entities a dependent parameter takes, sorted.
func (g *Graph) EntitiesOf(apiID, param string) []string {
	return g.paramEntities[apiID+"\x00"+param]
}

// Carriers returns every response field that carries a value a dependent
// parameter takes, sorted by API and path: where a value valid for it may
// have been seen.
func (g *Graph) Carriers(apiID, param string) []Carrier {
	var out []Carrier
	for _, name := range g.EntitiesOf(apiID, param) {
		out = append(out, g.entities[name].Carriers...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].API != out[j].API {
			return out[i].API < out[j].API
		}
		return out[i].Path < out[j].Path
	})
	return out
}
