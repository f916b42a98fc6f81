package dmc

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

const mjcfSample = `<mujoco model="m">
  <!-- <body name="a"> in a comment is no element -->
  <worldbody>
    <geom name="floor" size="1 1 .1" type="plane"/>
    <body name="a" pos="0 0 1">
      <body name="a_child">
        <geom name="g" size='.1'/>
      </body>
    </body>
    <body name="b"/>
  </worldbody>
  <sensor>
    <rangefinder name="r1" site="s"/>
    <touch name="t" site="s"/>
    <rangefinder name="r2" site="s"/>
  </sensor>
</mujoco>
`

// TestMJCFEdits: the document edits remove whole elements (nested bodies with their
// children, empty elements) and their lines, find names only in elements, set and add
// attributes, append children, and report names that are missing.
func TestMJCFEdits(t *testing.T) {
	doc, err := removeNamedElements([]byte(mjcfSample), "body", "a")
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	if strings.Contains(s, "a_child") || strings.Contains(s, `name="g"`) || !strings.Contains(s, `<body name="b"/>`) {
		t.Errorf("removing body a:\n%s", s)
	}
	if !strings.Contains(s, "<!-- <body name=\"a\">") || strings.Contains(s, "\n\n") {
		t.Errorf("the comment must stay and no blank line be left:\n%s", s)
	}
	if _, err := removeNamedElements([]byte(mjcfSample), "body", "nothing"); err == nil {
		t.Error("removing a missing body is not an error")
	}
	if _, err := removeNamedElements([]byte(mjcfSample), "geom", "a"); err == nil {
		t.Error(`removing geom "a" (only a body has that name) is not an error`)
	}
	doc, err = removeAllElements([]byte(mjcfSample), "rangefinder")
	if err != nil {
		t.Fatal(err)
	}
	if s := string(doc); strings.Contains(s, "rangefinder") || !strings.Contains(s, `<touch name="t"`) {
		t.Errorf("removing the rangefinders:\n%s", s)
	}
	doc, err = setElementAttr([]byte(mjcfSample), "geom", "floor", "size", "10 10 .5")
	if err == nil {
		doc, err = setElementAttr(doc, "body", "b", "pos", "1 2 3")
	}
	if err != nil {
		t.Fatal(err)
	}
	if s := string(doc); !strings.Contains(s, `<geom name="floor" size="10 10 .5" type="plane"/>`) || !strings.Contains(s, `<body name="b" pos="1 2 3"/>`) {
		t.Errorf("setting attributes:\n%s", s)
	}
	doc, err = appendToElement([]byte(mjcfSample), "worldbody", `<body name="c"/>`)
	if err != nil {
		t.Fatal(err)
	}
	e, ok, err := mjcfFind(doc, "body", "c")
	if err != nil || !ok {
		t.Fatalf("appended body not found: %v", err)
	}
	if w, _, _ := mjcfFind(doc, "worldbody", ""); e.start < w.start || e.end > w.end {
		t.Errorf("the appended body is not inside worldbody:\n%s", doc)
	}
	if _, err := mjcfElements([]byte("<a><b></a>")); err == nil {
		t.Error("mismatched end tag accepted")
	}
}

// Test helpers of the finger, manipulator, stacker, quadruped and lqr tests.

// layoutOf returns a spec's observation entries as "name:size" strings.
func layoutOf(spec envpool.Spec) []string {
	var out []string
	for _, f := range spec.ObsLayout {
		out = append(out, fmt.Sprintf("%s:%d", f.Name, f.Size))
	}
	return out
}

// mustID resolves a name in a test.
func mustID(t testing.TB, p *Physics, objType int, name string) int {
	t.Helper()
	id, err := p.ID(objType, name)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// mustJoint resolves a joint in a test.
func mustJoint(t testing.TB, p *Physics, name string) Joint {
	t.Helper()
	j, err := p.Joints(name)
	if err != nil {
		t.Fatal(err)
	}
	return j[0]
}

// closeTo compares an observation element with a value computed in float64.
func closeTo(got float32, want float64) bool {
	return math.Abs(float64(got)-want) <= 1e-6*max(1, math.Abs(want))
}

// checkEntry compares an observation entry with values computed by the test.
func checkEntry(t testing.TB, spec envpool.Spec, obs []float32, name string, want ...float64) {
	t.Helper()
	got := entry(t, spec, obs, name)
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
	}
	for i := range got {
		if !closeTo(got[i], want[i]) {
			t.Fatalf("%s[%d] = %v, want %v (entry %v, want %v)", name, i, got[i], want[i], got, want)
		}
	}
}

// checkSpec compares a task's frame skip and observation layout ("name:size" entries)
// with the suite's.
func checkSpec(t testing.TB, spec envpool.Spec, frameSkip int, layout []string) {
	t.Helper()
	if got := layoutOf(spec); !slices.Equal(got, layout) {
		t.Errorf("%s: layout %v, want %v", spec.TaskID, got, layout)
	}
	if spec.FrameSkip != frameSkip {
		t.Errorf("%s: frame skip %d, want %d (the suite's control timestep / model timestep)", spec.TaskID, spec.FrameSkip, frameSkip)
	}
}
