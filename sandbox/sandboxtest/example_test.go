package sandboxtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/understudy/understudy/sandbox/sandboxtest"
)

// In a test, sandboxtest.NewServer(t) starts the server and closes it in
// the test's cleanup; an example has no t, so it uses Start and Close.
func Example() {
	srv, err := sandboxtest.Start() // built-in tools, fake mode, frozen clock
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	// Over HTTP, as an agent calls it.
	client := &http.Client{Timeout: 10 * time.Second} // a call never waits forever
	resp, err := client.Post(srv.URL+"/v1/call", "application/json", strings.NewReader(
		`{"tool": "iso_codes", "api": "country_by_code", "arguments": {"code": "PT"}, "session": "demo"}`))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Status   int `json:"status"`
		Response struct {
			Data struct {
				Name    string `json:"name"`
				Capital string `json:"capital"`
			} `json:"data"`
		} `json:"response"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		log.Fatal(err)
	}
	fmt.Println("HTTP:", resp.StatusCode, answer.Status, answer.Response.Data.Name, answer.Response.Data.Capital)

	// In-process, skipping HTTP: the same pipeline, the same session.
	res, err := srv.Client().Call(context.Background(), "agent_clock", "get_current_time",
		map[string]any{"timezone": "Europe/Lisbon", "format": "iso"}, "demo")
	if err != nil {
		log.Fatal(err)
	}
	var now struct {
		Datetime string `json:"datetime"`
	}
	if err := json.Unmarshal(res.Response, &now); err != nil {
		log.Fatal(err)
	}
	fmt.Println("in-process:", res.Status, res.Source, now.Datetime)

	// What the agent did, as GET /v1/sessions/demo serves it.
	for _, c := range srv.Session("demo").Calls {
		fmt.Println(c.Seq, c.Tool+"."+c.API, string(c.Arguments), c.Status)
	}
	// Output:
	// HTTP: 200 200 Portugal Lisbon
	// in-process: 200 mock 2025-06-02T10:00:00+01:00
	// 1 iso_codes.country_by_code {"code":"PT"} 200
	// 2 agent_clock.get_current_time {"format":"iso","timezone":"Europe/Lisbon"} 200
}
