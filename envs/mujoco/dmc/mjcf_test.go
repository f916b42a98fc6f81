package dmc

import (
	"strings"
	"testing"
)

// mjcfSample is a document with what the edits must tell apart: nested and empty
// elements, both quotes, an element's name in a comment, repeated tags.
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
	doc, err = appendToElement([]byte(mjcfSample), "worldbody", "", `<body name="c"/>`)
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
	doc, err = appendToElement([]byte(mjcfSample), "body", "a_child", `<site name="s2"/>`)
	if err != nil {
		t.Fatal(err)
	}
	e, ok, err = mjcfFind(doc, "site", "s2")
	if err != nil || !ok {
		t.Fatalf("site appended to a_child not found: %v", err)
	}
	if c, _, _ := mjcfFind(doc, "body", "a_child"); e.start < c.start || e.end > c.end {
		t.Errorf("the appended site is not inside body a_child:\n%s", doc)
	}
	if _, err := appendToElement([]byte(mjcfSample), "body", "b", "<site/>"); err == nil {
		t.Error("appending to an empty element (<body name=\"b\"/>) is not an error")
	}
	if _, err := mjcfElements([]byte("<a><b></a>")); err == nil {
		t.Error("mismatched end tag accepted")
	}
}
