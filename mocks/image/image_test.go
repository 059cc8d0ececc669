package image

import (
	"bytes"
	"encoding/json"
	"image"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/basic"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/sandbox"
)

const (
	imgStreet = "https://images.understudy.test/city_street_traffic.jpg"
	imgMenu   = "https://images.understudy.test/paris_cafe_menu.png"
	imgLaptop = "https://images.understudy.test/product_laptop.jpg"
	imgApple  = "https://images.understudy.test/product_red_apple.png"
)

// imageTools are the tools of the image-processing scenario.
var imageTools = []string{"object_detection", "ocr_extract_text", "background_removal", "image_translation", "image_file_processing", "web_capture"}

// TestImageToolFiles checks every API has a stand-in, every example
// response matches its stand-in's shape, and every dependency path resolves
// in the source API's example.
func TestImageToolFiles(t *testing.T) {
	registry := standin.NewRegistry()
	Register(registry)
	tools := standintest.Tools(t, imageTools...)
	require.Len(t, tools, 6)
	for name, tl := range tools {
		require.Equal(t, "image_processing", tl.Scenario, name)
		for _, a := range tl.APIs {
			_, ok := registry.Lookup(name, a.Name)
			require.True(t, ok, "no stand-in for %s.%s", name, a.Name)
			require.NotEmpty(t, a.ExampleResponse, "%s.%s has no example", name, a.Name)
			require.NotNil(t, a.Response(), "%s.%s has no schema", name, a.Name)
			for _, p := range a.Params {
				for _, d := range p.Depends {
					require.Contains(t, p.Description, d.API, "%s.%s(%s) must name %s in its description", name, a.Name, p.Name, d.API)
					src := tools[d.Tool]
					if d.Tool == "web_search" {
						continue // documented by the basic slice; checked against the stand-in below
					}
					require.NotNil(t, src, "unknown tool %s", d.Tool)
					sa := src.API(d.API)
					require.NotNil(t, sa, "unknown api %s.%s", d.Tool, d.API)
					var ex any
					require.NoError(t, json.Unmarshal(sa.ExampleResponse, &ex))
					require.NotEmpty(t, deps.Values(ex, d.Path), "%s.%s: path %s does not resolve in %s.%s's example", name, a.Name, d.Path, d.Tool, d.API)
				}
			}
		}
	}
}

// TestImageExamples calls every API with its documented example arguments,
// chaining the minted values the way the plan's dependencies do, and checks
// the response has the documented shape.
func TestImageExamples(t *testing.T) {
	tools := standintest.Tools(t, imageTools...)
	shot := standintest.New(t, pipeline).Object("web_capture", "take_screenshot", map[string]any{"url": "https://www.visitlisboa.com", "width": 1280.0, "height": 720.0, "fullpage": false})
	resized := standintest.New(t, pipeline).Object("image_file_processing", "resize_image", map[string]any{"image_url": imgLaptop, "width": 320.0, "keep_aspect": true})
	compressed := standintest.New(t, pipeline).Object("image_file_processing", "compress_image", map[string]any{"image_url": deps.Values(resized, "data.output_url")[0], "quality": 60.0})
	_ = compressed
	standintest.New(t, pipeline).Object("background_removal", "remove_background", map[string]any{"image_url": imgApple})
	for name, tl := range tools {
		for _, a := range tl.APIs {
			args := map[string]any{}
			for _, p := range a.Params {
				if p.Default != nil {
					args[p.Name] = p.Default
				}
			}
			got := standintest.New(t, pipeline).Object(name, a.Name, args)
			var ex any
			require.NoError(t, json.Unmarshal(a.ExampleResponse, &ex))
			require.NoError(t, standintest.Shape(ex, got), name+"."+a.Name)
		}
	}
	// The screenshot is an image the other image APIs accept.
	url := deps.Values(shot, "data.image_url")[0]
	det := standintest.New(t, pipeline).Object("object_detection", "detect_objects", map[string]any{"url": url})
	require.NotEmpty(t, deps.Values(det, "results.objects[].label"))
	ocr := standintest.New(t, pipeline).Object("ocr_extract_text", "ocr_image_url", map[string]any{"url": url})
	require.Contains(t, ocr["text"], "VISIT LISBOA - OFFICIAL TOURISM WEBSITE")
	require.Contains(t, ocr["text"], "RUA AUGUSTA")
	tr := standintest.New(t, pipeline).Object("image_translation", "translate_image_text", map[string]any{"image_url": url, "target_lang": "en"})
	require.Contains(t, deps.Values(tr, "data.blocks[].translated_text"), "AUGUSTA STREET")
}

func TestDetectObjects(t *testing.T) {
	out := standintest.New(t, pipeline).Object("object_detection", "detect_objects", map[string]any{"url": imgStreet})
	labels := deps.Values(out, "results.objects[].label")
	require.Len(t, labels, 7)
	require.Contains(t, labels, "bus")
	require.Contains(t, labels, "traffic light")
	require.Equal(t, 7.0, deps.Values(out, "results.objects_count")[0])

	// A resized copy reports the same objects with scaled boxes.
	small := standintest.New(t, pipeline).Object("image_file_processing", "resize_image", map[string]any{"image_url": imgStreet, "width": 320.0})
	require.Equal(t, 240.0, deps.Values(small, "data.height")[0])
	half := standintest.New(t, pipeline).Object("object_detection", "detect_objects", map[string]any{"url": deps.Values(small, "data.output_url")[0]})
	full := deps.Values(out, "results.objects[].box")
	for i, b := range deps.Values(half, "results.objects[].box") {
		fb, hb := full[i].(map[string]any), b.(map[string]any)
		require.InDelta(t, fb["x"].(float64)/2, hb["x"].(float64), 1)
		require.InDelta(t, fb["width"].(float64)/2, hb["width"].(float64), 1)
	}

	labelsOut := standintest.New(t, pipeline).Object("object_detection", "list_labels", map[string]any{})
	require.Contains(t, labelsOut["labels"], "person")
	require.Contains(t, labelsOut["labels"], "street sign")
}

func TestOCRAndTranslation(t *testing.T) {
	out := standintest.New(t, pipeline).Object("ocr_extract_text", "ocr_image_url", map[string]any{"url": imgMenu})
	require.Equal(t, "fr", out["language"])
	require.Equal(t, "MENU DU JOUR\nSOUPE À L'OIGNON 8 €\nCROQUE MONSIEUR 12 €\nCRÈME BRÛLÉE 7 €\nCAFÉ 2,50 €", out["text"])
	require.Equal(t, []any{"MENU", "DU", "JOUR"}, deps.Values(out, "lines[].words[].text")[:3])
	// A language filter that matches nothing leaves no text.
	de := standintest.New(t, pipeline).Object("ocr_extract_text", "ocr_image_url", map[string]any{"url": imgMenu, "language": "de"})
	require.Equal(t, "", de["text"])

	tr := standintest.New(t, pipeline).Object("image_translation", "translate_image_text", map[string]any{"image_url": imgMenu, "target_lang": "de"})
	require.Equal(t, "TAGESMENÜ\nZWIEBELSUPPE 8 €\nSCHINKEN-KÄSE-TOAST 12 €\nCRÈME BRÛLÉE 7 €\nKAFFEE 2,50 €", deps.Values(tr, "data.translated_text")[0])
	require.Equal(t, "fr", deps.Values(tr, "data.source_lang")[0])
	same := standintest.New(t, pipeline).Object("image_translation", "translate_image_text", map[string]any{"image_url": imgMenu, "target_lang": "fr"})
	require.Equal(t, deps.Values(out, "text")[0], deps.Values(same, "data.translated_text")[0])
}

func TestImageProcessingChain(t *testing.T) {
	info := standintest.New(t, pipeline).Object("image_file_processing", "image_info", map[string]any{"image_url": imgLaptop})
	require.Equal(t, "jpeg", deps.Values(info, "data.format")[0])
	require.Equal(t, 640.0, deps.Values(info, "data.width")[0])

	r := standintest.New(t, pipeline).Object("image_file_processing", "resize_image", map[string]any{"image_url": imgLaptop, "width": 200.0, "height": 200.0, "keep_aspect": true})
	require.Equal(t, []any{200.0, 150.0}, []any{deps.Values(r, "data.width")[0], deps.Values(r, "data.height")[0]})
	stretch := standintest.New(t, pipeline).Object("image_file_processing", "resize_image", map[string]any{"image_url": imgLaptop, "width": 200.0, "height": 200.0, "keep_aspect": false})
	require.Equal(t, 200.0, deps.Values(stretch, "data.height")[0])

	c := standintest.New(t, pipeline).Object("image_file_processing", "compress_image", map[string]any{"image_url": deps.Values(r, "data.output_url")[0], "quality": 30.0})
	require.Less(t, deps.Values(c, "data.size_bytes")[0], deps.Values(c, "data.original_size_bytes")[0])
	require.Greater(t, deps.Values(c, "data.size_reduction_percent")[0], 0.0)

	for _, f := range []string{"png", "gif", "jpeg"} {
		cv := standintest.New(t, pipeline).Object("image_file_processing", "convert_image_format", map[string]any{"image_url": deps.Values(c, "data.output_url")[0], "format": f})
		require.Equal(t, f, deps.Values(cv, "data.format")[0])
		require.Equal(t, 200.0, deps.Values(cv, "data.width")[0])
		u := deps.Values(cv, "data.output_url")[0].(string)
		require.True(t, strings.HasPrefix(u, "https://images.understudy.test/processed/"), u)
		// The output really is an image of that format.
		rec, err := fetch(standintest.World(t).Images, u)
		require.NoError(t, err)
		_, got, err := image.DecodeConfig(bytes.NewReader(rec.Bytes))
		require.NoError(t, err)
		require.Equal(t, f, got)
	}
	// PNG compression shrinks the generated PNGs too.
	pc := standintest.New(t, pipeline).Object("image_file_processing", "compress_image", map[string]any{"image_url": imgMenu, "quality": 60.0})
	require.Less(t, deps.Values(pc, "data.size_bytes")[0], deps.Values(pc, "data.original_size_bytes")[0])
}

func TestBackgroundRemoval(t *testing.T) {
	out := standintest.New(t, pipeline).Object("background_removal", "remove_background", map[string]any{"image_url": imgApple})
	id := out["result_id"].(string)
	require.Equal(t, map[string]any{"x": 80.0, "y": 70.0, "width": 160.0, "height": 180.0}, deps.Values(out, "foreground.box")[0])
	again := standintest.New(t, pipeline).Object("background_removal", "get_removal_result", map[string]any{"result_id": id})
	require.Equal(t, out, again)
	rec, err := fetch(standintest.World(t).Images, out["result_url"].(string))
	require.NoError(t, err)
	img, _, err := image.Decode(bytes.NewReader(rec.Bytes))
	require.NoError(t, err)
	_, _, _, corner := img.At(2, 2).RGBA()
	_, _, _, centre := img.At(160, 170).RGBA()
	require.Zero(t, corner, "the background is transparent")
	require.Equal(t, uint32(0xffff), centre, "the apple is opaque")

	_, err = standintest.New(t, pipeline).Plain("background_removal", "get_removal_result", map[string]any{"result_id": "0000deadbeef"})
	body := standintest.Rejected(t, err, 404)
	require.Equal(t, "Result not found", body["error"])
}

func TestWebCapture(t *testing.T) {
	s := standintest.New(t, pipeline).Object("web_capture", "take_screenshot", map[string]any{"url": "www.ratp.fr/plans", "width": 800.0, "height": 600.0, "fullpage": true})
	require.Equal(t, 800.0, deps.Values(s, "data.width")[0])
	require.GreaterOrEqual(t, deps.Values(s, "data.height")[0], 600.0)
	id := deps.Values(s, "data.screenshot_id")[0]
	g := standintest.New(t, pipeline).Object("web_capture", "get_screenshot", map[string]any{"screenshot_id": id})
	require.Equal(t, s, g)
	ocr := standintest.New(t, pipeline).Object("ocr_extract_text", "ocr_image_url", map[string]any{"url": deps.Values(s, "data.image_url")[0]})
	require.Contains(t, ocr["text"], "TRAFIC NORMAL SUR TOUTES LES LIGNES.")
	tr := standintest.New(t, pipeline).Object("image_translation", "translate_image_text", map[string]any{"image_url": deps.Values(s, "data.image_url")[0], "target_lang": "en"})
	require.Contains(t, deps.Values(tr, "data.translated_text")[0], "Normal service on all lines.")
}

func TestImageErrors(t *testing.T) {
	cases := []struct {
		tool, api string
		args      map[string]any
		status    int
		want      string
	}{
		{"object_detection", "detect_objects", map[string]any{"url": "https://images.understudy.test/nope.jpg"}, 400, "Could not fetch image"},
		{"object_detection", "detect_objects", map[string]any{"url": "https://www.visitlisboa.com"}, 400, "does not point to an image"},
		{"object_detection", "detect_objects", map[string]any{"url": "not a url"}, 400, "Could not fetch image"},
		{"ocr_extract_text", "ocr_image_url", map[string]any{"url": "https://cdn.unknown-host.example/a.png"}, 400, "Unable to download image"},
		{"ocr_extract_text", "ocr_image_url", map[string]any{"url": imgMenu, "language": "xx"}, 400, "Unsupported language"},
		{"image_translation", "translate_image_text", map[string]any{"image_url": imgMenu, "target_lang": "ja"}, 400, "not supported"},
		{"image_file_processing", "image_info", map[string]any{"image_url": "https://images.understudy.test/processed/ffffffffffffffffffffffff.png"}, 400, "Could not fetch image"},
		{"image_file_processing", "image_info", map[string]any{"image_url": "https://www.bahn.de/"}, 400, "not an image"},
		{"image_file_processing", "resize_image", map[string]any{"image_url": imgLaptop, "width": 0.0}, 400, "width must be"},
		{"image_file_processing", "resize_image", map[string]any{"image_url": imgLaptop, "width": 100000.0}, 400, "width must be"},
		{"image_file_processing", "compress_image", map[string]any{"image_url": imgLaptop, "quality": 101.0}, 400, "quality must be"},
		{"image_file_processing", "convert_image_format", map[string]any{"image_url": imgLaptop, "format": "bmp"}, 400, "format must be"},
		{"background_removal", "remove_background", map[string]any{"image_url": "https://images.understudy.test/x.png"}, 400, "Failed to download image"},
		{"web_capture", "take_screenshot", map[string]any{"url": "https://www.no-such-site.example"}, 422, "Could not load the page: net::ERR_NAME_NOT_RESOLVED"},
		{"web_capture", "take_screenshot", map[string]any{"url": "https://www.maintenance-mode.example.net"}, 422, "Could not load the page: net::ERR_CONNECTION_TIMED_OUT"},
		{"web_capture", "take_screenshot", map[string]any{"url": "::"}, 400, "Invalid URL"},
		{"web_capture", "take_screenshot", map[string]any{"url": "https://www.bahn.de", "width": 10.0}, 400, "width must be"},
		{"web_capture", "get_screenshot", map[string]any{"screenshot_id": "abc"}, 404, "Screenshot not found"},
	}
	for _, tc := range cases {
		t.Run(tc.tool+"."+tc.api, func(t *testing.T) {
			_, err := standintest.New(t, pipeline).Plain(tc.tool, tc.api, tc.args)
			var ae *sandbox.Rejection
			require.ErrorAs(t, err, &ae)
			require.Equal(t, tc.status, ae.Status)
			b, _ := json.Marshal(ae.Body)
			require.Contains(t, string(b), tc.want)
		})
	}
}

func TestImageSearch(t *testing.T) {
	out := standintest.New(t, pipeline).Object("web_search", "image_search", map[string]any{"q": "lisbon street sign", "num": 3.0})
	urls := deps.Values(out, "data[].url")
	require.Len(t, urls, 3)
	require.Equal(t, "https://images.understudy.test/lisbon_street_sign.png", urls[0])
	require.Equal(t, "https://images.understudy.test/thumbs/lisbon_street_sign.jpg", deps.Values(out, "data[].thumbnail")[0])
	// Every result URL and thumbnail is fetchable by the image APIs.
	standintest.New(t, pipeline).Object("object_detection", "detect_objects", map[string]any{"url": urls[0]})
	th := standintest.New(t, pipeline).Object("image_file_processing", "image_info", map[string]any{"image_url": deps.Values(out, "data[].thumbnail")[0]})
	require.Equal(t, 200.0, deps.Values(th, "data.width")[0])
	none := standintest.New(t, pipeline).Object("web_search", "image_search", map[string]any{"q": "zzzz qqqq"})
	require.Empty(t, none["data"])
}

// TestImageDeterminism: the same call gives the same bytes, different
// inputs give different outputs.
func TestImageDeterminism(t *testing.T) {
	calls := []struct {
		tool, api string
		a, b      map[string]any
	}{
		{"object_detection", "detect_objects", map[string]any{"url": imgStreet}, map[string]any{"url": imgLaptop}},
		{"ocr_extract_text", "ocr_image_url", map[string]any{"url": imgMenu}, map[string]any{"url": "https://images.understudy.test/stop_sign.png"}},
		{"image_translation", "translate_image_text", map[string]any{"image_url": imgMenu, "target_lang": "en"}, map[string]any{"image_url": imgMenu, "target_lang": "es"}},
		{"image_file_processing", "resize_image", map[string]any{"image_url": imgLaptop, "width": 300.0}, map[string]any{"image_url": imgLaptop, "width": 301.0}},
		{"image_file_processing", "compress_image", map[string]any{"image_url": imgLaptop, "quality": 50.0}, map[string]any{"image_url": imgLaptop, "quality": 51.0}},
		{"background_removal", "remove_background", map[string]any{"image_url": imgApple}, map[string]any{"image_url": imgLaptop}},
		{"web_capture", "take_screenshot", map[string]any{"url": "https://www.bahn.de", "width": 1280.0, "height": 720.0, "fullpage": false}, map[string]any{"url": "https://www.bahn.de", "width": 1024.0, "height": 720.0, "fullpage": false}},
		{"web_search", "image_search", map[string]any{"q": "cat"}, map[string]any{"q": "dog"}},
	}
	for _, c := range calls {
		a1, err := standintest.New(t, pipeline).Plain(c.tool, c.api, c.a)
		require.NoError(t, err)
		a2, err := standintest.New(t, pipeline).Plain(c.tool, c.api, c.a)
		require.NoError(t, err)
		b1, err := standintest.New(t, pipeline).Plain(c.tool, c.api, c.b)
		require.NoError(t, err)
		require.Equal(t, string(canon.MustJSON(a1)), string(canon.MustJSON(a2)), "%s.%s", c.tool, c.api)
		require.NotEqual(t, string(canon.MustJSON(a1)), string(canon.MustJSON(b1)), "%s.%s", c.tool, c.api)
	}
}

// TestImageGolden pins a sample of responses byte for byte.
func TestImageGolden(t *testing.T) {
	sample := map[string]any{}
	add := func(name, tool, api string, args map[string]any) {
		sample[name] = standintest.New(t, pipeline).Object(tool, api, args)
	}
	add("detect_objects", "object_detection", "detect_objects", map[string]any{"url": imgStreet})
	add("list_labels", "object_detection", "list_labels", map[string]any{})
	add("ocr_image_url", "ocr_extract_text", "ocr_image_url", map[string]any{"url": "https://images.understudy.test/lisbon_street_sign.png"})
	add("translate_image_text", "image_translation", "translate_image_text", map[string]any{"image_url": "https://images.understudy.test/berlin_summer_concert_poster.png", "target_lang": "pt"})
	add("image_info", "image_file_processing", "image_info", map[string]any{"image_url": imgApple})
	add("resize_image", "image_file_processing", "resize_image", map[string]any{"image_url": imgApple, "width": 100.0})
	add("remove_background", "background_removal", "remove_background", map[string]any{"image_url": "https://images.understudy.test/product_backpack.jpg"})
	add("take_screenshot", "web_capture", "take_screenshot", map[string]any{"url": "https://www.example-realty.com", "width": 640.0, "height": 480.0, "fullpage": false})
	add("image_search", "web_search", "image_search", map[string]any{"q": "menu", "num": 5.0})
	got, err := json.MarshalIndent(sample, "", "  ")
	require.NoError(t, err)
	standintest.GoldenBytes(t, "responses.golden.json", got)
}

// FuzzImageURL: any URL string gets an answer or a clean error, never a panic.
func FuzzImageURL(f *testing.F) {
	for _, s := range []string{imgStreet, "https://images.understudy.test/thumbs/stop_sign.jpg", "https://images.understudy.test/processed/x.png", "http://[::1", "https://www.bahn.de", "", "https://images.understudy.test/../../etc/passwd"} {
		f.Add(s)
	}
	iw := standintest.World(f).Images
	f.Fuzz(func(t *testing.T, s string) {
		rec, err := fetch(iw, s)
		if err == nil {
			require.NotNil(t, rec.Img)
			return
		}
		var fe *fetchError
		require.ErrorAs(t, err, &fe)
	})
}

// pipeline registers the image stand-ins and web_search, whose image_search
// is where the image pipeline's URLs come from (the image_understanding group).
func pipeline(r *standin.Registry) {
	Register(r)
	basic.Register(r)
}

func benchImage(b *testing.B, tool, api string, args map[string]any) {
	standintest.New(b, pipeline).Bench(b, tool, api, args)
}

func BenchmarkDetectObjects(b *testing.B) {
	benchImage(b, "object_detection", "detect_objects", map[string]any{"url": imgStreet})
}
func BenchmarkOCRImageURL(b *testing.B) {
	benchImage(b, "ocr_extract_text", "ocr_image_url", map[string]any{"url": imgMenu})
}
func BenchmarkTranslateImageText(b *testing.B) {
	benchImage(b, "image_translation", "translate_image_text", map[string]any{"image_url": imgMenu, "target_lang": "en"})
}
func BenchmarkResizeImage(b *testing.B) {
	benchImage(b, "image_file_processing", "resize_image", map[string]any{"image_url": imgLaptop, "width": 320.0})
}
func BenchmarkRemoveBackground(b *testing.B) {
	benchImage(b, "background_removal", "remove_background", map[string]any{"image_url": imgApple})
}
func BenchmarkTakeScreenshot(b *testing.B) {
	benchImage(b, "web_capture", "take_screenshot", map[string]any{"url": "https://www.bahn.de", "width": 1280.0, "height": 720.0, "fullpage": false})
}
func BenchmarkImageSearch(b *testing.B) {
	benchImage(b, "web_search", "image_search", map[string]any{"q": "lisbon street sign"})
}

// TestImageSearchMatchesDocs checks the stand-in against the web_search
// tool file's documented image_search example.
func TestImageSearchMatchesDocs(t *testing.T) {
	a := standintest.Tool(t, "web_search").API("image_search")
	require.NotNil(t, a)
	args := map[string]any{}
	for _, p := range a.Params {
		if p.Default != nil {
			args[p.Name] = p.Default
		}
	}
	var ex any
	require.NoError(t, json.Unmarshal(a.ExampleResponse, &ex))
	require.NoError(t, standintest.Shape(ex, standintest.New(t, pipeline).Object("web_search", "image_search", args)), "web_search.image_search")
	require.NotEmpty(t, deps.Values(ex, "data[].url"))
}
