package option

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	Rate float64 `toml:"rate" range:"(0,1]" help:"step size"`
}

type sample struct {
	Steps  int            `toml:"steps" range:"[1,100]" help:"how many"`
	Scale  float64        `toml:"scale" help:"a factor"`
	On     bool           `toml:"on"`
	Name   string         `toml:"name" oneof:"fast|exact"`
	Sizes  []int          `toml:"sizes" range:"[1,inf)"`
	Pair   [2]float64     `toml:"pair"`
	Any    any            `toml:"any"`
	Sec    inner          `toml:"sec"`
	Ptr    *inner         `toml:"ptr"`
	Table  map[string]any `toml:"table"`
	hidden int
	Skip   int `toml:"-"`
	NoTag  int
}

func defaults() sample {
	return sample{Steps: 10, Scale: 1, Name: "fast", Sizes: []int{4}, Pair: [2]float64{-1, 1}, Sec: inner{Rate: 0.5}, Ptr: &inner{Rate: 0.25}}
}

func TestDecodeCopiesValuesAndKeepsDefaults(t *testing.T) {
	s := defaults()
	err := Decode(map[string]any{
		"steps": int64(20), "scale": int64(3), "on": true, "name": "exact",
		"sizes": []any{int64(64), 32.0}, "pair": []any{0.5, int64(2)}, "any": "x",
		"sec": map[string]any{"rate": 1.0}, "table": map[string]any{"k": int64(1)},
	}, &s)
	if err != nil {
		t.Fatal(err)
	}
	want := sample{Steps: 20, Scale: 3, On: true, Name: "exact", Sizes: []int{64, 32}, Pair: [2]float64{0.5, 2},
		Any: "x", Sec: inner{Rate: 1}, Ptr: &inner{Rate: 0.25}, Table: map[string]any{"k": int64(1)}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("decoded %+v\nwant    %+v", s, want)
	}
	// JSON gives every number as float64: whole ones are integers.
	s = defaults()
	if err := Decode(map[string]any{"steps": 7.0}, &s); err != nil || s.Steps != 7 || s.Scale != 1 {
		t.Errorf("JSON integer: steps %d scale %v, %v", s.Steps, s.Scale, err)
	}
}

func TestDecodeErrorsNameTheKey(t *testing.T) {
	cases := []struct {
		name  string
		table map[string]any
		want  []string
	}{
		{"unknown", map[string]any{"stesp": int64(1)}, []string{"unknown key stesp: the table takes: steps, scale", "did you mean steps?"}},
		{"unknown in section", map[string]any{"sec": map[string]any{"rte": 1.0}}, []string{"unknown key sec.rte: [sec] takes: rate", "did you mean sec.rate?"}},
		{"no suggestion", map[string]any{"zzzzzzzz": 1.0}, []string{"unknown key zzzzzzzz"}},
		{"fraction", map[string]any{"steps": 2.5}, []string{"steps = 2.5: want an integer, got a number"}},
		{"string for int", map[string]any{"steps": "many"}, []string{`steps = "many": want an integer, got a string`}},
		{"bool", map[string]any{"on": int64(1)}, []string{"on = 1: want true or false"}},
		{"range", map[string]any{"steps": int64(0)}, []string{"steps = 0 is out of range: allowed >= 1 and <= 100"}},
		{"open range", map[string]any{"sec": map[string]any{"rate": 0.0}}, []string{"sec.rate = 0 is out of range: allowed > 0 and <= 1"}},
		{"nan", map[string]any{"ptr": map[string]any{"rate": math.NaN()}}, []string{"ptr.rate = nan is out of range"}},
		{"element range", map[string]any{"sizes": []any{int64(3), int64(0)}}, []string{"sizes[1] = 0 is out of range: allowed >= 1"}},
		{"element type", map[string]any{"sizes": []any{"a"}}, []string{`sizes[0] = "a": want an integer`}},
		{"pair length", map[string]any{"pair": []any{1.0}}, []string{"pair: want an array of 2 numbers, got an array"}},
		{"oneof", map[string]any{"name": "slow"}, []string{`name = "slow": use one of fast, exact`}},
		{"section not a table", map[string]any{"sec": int64(1)}, []string{"sec: want a table [sec] of keys (rate), got an integer"}},
		{"table", map[string]any{"table": int64(1)}, []string{"table = 1: want a table"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := defaults()
			err := Decode(c.table, &s)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// Every problem is reported at once.
	s := defaults()
	err := Decode(map[string]any{"steps": int64(0), "on": "yes", "x": 1.0}, &s)
	if n := strings.Count(err.Error(), "\n") + 1; n != 3 {
		t.Errorf("%d problems reported, want 3: %v", n, err)
	}
}

func TestDecoderNames(t *testing.T) {
	d := Decoder{Noun: "option", Root: "this task", Prefix: "env."}
	s := defaults()
	err := d.Decode(map[string]any{"stps": int64(1), "steps": int64(500)}, &s)
	for _, w := range []string{"unknown option env.stps: this task takes: steps", "did you mean env.steps?",
		"option env.steps = 500 is out of range"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v lacks %q", err, w)
		}
	}
	var none struct{}
	if err := d.Decode(map[string]any{"x": 1.0}, &none); err == nil || err.Error() != "unknown option env.x: this task takes no options" {
		t.Errorf("an option for a struct without keys: %v", err)
	}
	if err := d.Decode(nil, s); err == nil || !strings.Contains(err.Error(), "pointers to structs") {
		t.Errorf("decoding into a non-pointer: %v", err)
	}
}

func TestLookup(t *testing.T) {
	typ := reflect.TypeOf(sample{})
	if f, rest, err := (Decoder{}).Lookup(typ, "sec.rate"); err != nil || f.Name != "Rate" || rest != "" {
		t.Errorf("sec.rate: %v %q %v", f.Name, rest, err)
	}
	if f, rest, err := (Decoder{}).Lookup(typ, "table.a.b"); err != nil || f.Name != "Table" || rest != "a.b" {
		t.Errorf("table.a.b: %v %q %v", f.Name, rest, err)
	}
	if _, _, err := (Decoder{}).Lookup(typ, "ptr.rat"); err == nil || !strings.Contains(err.Error(), "did you mean ptr.rate?") {
		t.Errorf("ptr.rat: %v", err)
	}
	if _, _, err := (Decoder{}).Lookup(typ, "steps.x"); err == nil || !strings.Contains(err.Error(), "steps is a single value") {
		t.Errorf("steps.x: %v", err)
	}
}

func TestDescribe(t *testing.T) {
	got := Describe(defaults())
	var keys []string
	for _, f := range got {
		keys = append(keys, f.Key)
	}
	if want := "steps scale on name sizes pair any sec.rate ptr.rate table"; strings.Join(keys, " ") != want {
		t.Errorf("keys %q, want %q", strings.Join(keys, " "), want)
	}
	first := Field{Key: "steps", Type: "integer", Default: "10", Allowed: ">= 1 and <= 100", Help: "how many"}
	if got[0] != first {
		t.Errorf("steps: %+v, want %+v", got[0], first)
	}
	if got[3].Allowed != "one of fast, exact" || got[3].Default != `"fast"` || got[4].Type != "list of integers" || got[4].Default != "[4]" {
		t.Errorf("name, sizes: %+v %+v", got[3], got[4])
	}
	if !reflect.DeepEqual(Keys(&sample{}), []string{"steps", "scale", "on", "name", "sizes", "pair", "any", "sec", "ptr", "table"}) {
		t.Errorf("Keys: %v", Keys(&sample{}))
	}
}

func TestParseValue(t *testing.T) {
	for _, c := range []struct {
		text string
		want any
	}{
		{"4", int64(4)}, {"1_000", int64(1000)}, {"0.25", 0.25}, {"1e6", 1e6}, {"true", true},
		{`"8x8"`, "8x8"}, {"8x8", "8x8"}, {"runs/x", "runs/x"}, {"[64, 64]", []any{int64(64), int64(64)}},
		{"64,64", []any{int64(64), int64(64)}}, {"a,b", "a,b"}, {"2026-01-01", "2026-01-01"}, {" 3 ", int64(3)},
	} {
		if got := ParseValue(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseValue(%q) = %#v, want %#v", c.text, got, c.want)
		}
	}
	m, err := ParseAssignments([]string{"frame_skip=4", "camera.distance = 2.5", "frame_skip=2"})
	want := map[string]any{"frame_skip": int64(2), "camera": map[string]any{"distance": 2.5}}
	if err != nil || !reflect.DeepEqual(m, want) {
		t.Errorf("ParseAssignments = %v, %v; want %v", m, err, want)
	}
	if _, err := ParseAssignments([]string{"frame_skip"}); err == nil || !strings.Contains(err.Error(), "key=value") {
		t.Errorf("an assignment without =: %v", err)
	}
}

func TestSuggest(t *testing.T) {
	if d := Distance("kitten", "sitting"); d != 3 {
		t.Errorf("Distance(kitten, sitting) = %d, want 3", d)
	}
	if d := Distance("żółw", "zółw"); d != 1 {
		t.Errorf("Distance counts runes: %d, want 1", d)
	}
	keys := []string{"learning_rate", "gamma", "gae_lambda", "clip_coef"}
	if got := Suggest("Gama", keys, 3); !reflect.DeepEqual(got, []string{"gamma"}) {
		t.Errorf("Suggest(Gama) = %v", got)
	}
	if got := Closest("xyz", keys); got != "" {
		t.Errorf("Closest(xyz) = %q, want none", got)
	}
	// Ties keep the candidates' order; n bounds the answer.
	if got := Suggest("ab", []string{"ac", "ad", "ae"}, 2); !reflect.DeepEqual(got, []string{"ac", "ad"}) {
		t.Errorf("Suggest(ab) = %v", got)
	}
}

func TestDecodeSharesKeysAmongStructs(t *testing.T) {
	type common struct {
		FrameSkip int `toml:"frame_skip" range:"[1,10]"`
	}
	type own struct {
		Poles int `toml:"num_poles" range:"[1,100]"`
	}
	c, o := common{FrameSkip: 1}, own{Poles: 3}
	if err := Decode(map[string]any{"frame_skip": int64(2), "num_poles": int64(5)}, &c, &o); err != nil || c.FrameSkip != 2 || o.Poles != 5 {
		t.Errorf("decoded %+v %+v, %v", c, o, err)
	}
	err := Decode(map[string]any{"num_pole": int64(5), "frame_skip": int64(0)}, &c, &o)
	for _, w := range []string{"unknown key num_pole: the table takes: frame_skip, num_poles (did you mean num_poles?)", "frame_skip = 0 is out of range"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v lacks %q", err, w)
		}
	}
}

// TestValues: every key with its value after a decode, defaults included, sections as
// dotted keys, embedded structs' keys at the top, later structs over earlier ones.
func TestValues(t *testing.T) {
	type inner struct {
		Size int `toml:"size"`
	}
	type base struct {
		Skip int `toml:"frame_skip"`
	}
	type opts struct {
		base
		Name   string  `toml:"name"`
		Rate   float64 `toml:"rate"`
		Hidden int     // no toml tag: not an option
		Pix    inner   `toml:"pixels"`
	}
	o := opts{base: base{Skip: 4}, Name: "a", Rate: 0.5, Pix: inner{Size: 84}}
	if err := Decode(map[string]any{"rate": 0.25, "pixels": map[string]any{"size": 64}}, &o); err != nil {
		t.Fatal(err)
	}
	type extra struct {
		Name string `toml:"name"`
		On   bool   `toml:"on"`
	}
	got := Values(&o, extra{Name: "b"}, 3)
	want := map[string]any{"frame_skip": 4, "name": "b", "rate": 0.25, "pixels.size": 64, "on": false}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Values = %v, want %v", got, want)
	}
}
