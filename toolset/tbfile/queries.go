package tbfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/understudy/understudy/toolset"
)

// QueryTemplates says what AddQueryTemplates read.
type QueryTemplates struct {
	Files int `json:"files"`
	// Entries are the api_list entries with a template_response.
	Entries int `json:"entries"`
	// Attached is the number of APIs that got a template.
	Attached int `json:"attached"`
	// Unresolved entries name a tool or API the catalog lacks.
	Unresolved int `json:"unresolved"`
}

// QueryFileError is a query file AddQueryTemplates cannot read.
type QueryFileError struct {
	File string
	Err  error
}

func (e *QueryFileError) Error() string { return fmt.Sprintf("query file %s: %v", e.File, e.Err) }
func (e *QueryFileError) Unwrap() error { return e.Err }

// AddQueryTemplates reads ToolBench query files (StableToolBench's
// solvable_queries, ToolBench's G1_query.json: JSON arrays of queries whose
// api_list entries carry category_name, tool_name, api_name and
// template_response) and gives each imported API they name its
// template_response, unless its tool file gave it one or an earlier entry
// did. A path is a file or a folder of *.json files (not searched
// recursively), read in name order. Built-in tools are left alone (their
// stand-ins answer). Call it before the catalog serves: it changes APIs.
func AddQueryTemplates(c *toolset.Catalog, paths ...string) (QueryTemplates, error) {
	var rep QueryTemplates
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return rep, &QueryFileError{File: p, Err: err}
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(p, "*.json"))
		if err != nil {
			return rep, &QueryFileError{File: p, Err: err}
		}
		if len(matches) == 0 {
			return rep, &QueryFileError{File: p, Err: errors.New("no *.json query files in the folder")}
		}
		sort.Strings(matches)
		files = append(files, matches...)
	}
	for _, f := range files {
		if err := addTemplatesFrom(c, f, &rep); err != nil {
			return rep, err
		}
		rep.Files++
	}
	return rep, nil
}

// queryAPIs is the part of a query record AddQueryTemplates reads.
type queryAPIs struct {
	APIList []struct {
		Category string          `json:"category_name"`
		Tool     string          `json:"tool_name"`
		API      string          `json:"api_name"`
		Template json.RawMessage `json:"template_response"`
	} `json:"api_list"`
}

// addTemplatesFrom reads one query file a record at a time: ToolBench's
// G1_query.json is hundreds of megabytes.
func addTemplatesFrom(c *toolset.Catalog, file string, rep *QueryTemplates) error {
	fh, err := os.Open(file)
	if err != nil {
		return &QueryFileError{File: file, Err: err}
	}
	defer fh.Close()
	dec := json.NewDecoder(fh)
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return &QueryFileError{File: file, Err: errors.New("not a JSON array of queries")}
	}
	for i := 0; dec.More(); i++ {
		var q queryAPIs
		if err := dec.Decode(&q); err != nil {
			return &QueryFileError{File: file, Err: fmt.Errorf("record %d: %w", i, err)}
		}
		for _, e := range q.APIList {
			t := toolset.NormalizeTemplate(e.Template)
			if t == nil {
				continue
			}
			rep.Entries++
			a := c.ToolBenchAPI(e.Category, e.Tool, e.API)
			switch {
			case a == nil:
				rep.Unresolved++
			case a.Tool != nil && a.Tool.Builtin, len(a.TemplateResponse) > 0:
			default:
				a.TemplateResponse = t
				rep.Attached++
			}
		}
	}
	if _, err := dec.Token(); err != nil && !errors.Is(err, io.EOF) {
		return &QueryFileError{File: file, Err: err}
	}
	return nil
}
