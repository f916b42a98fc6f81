package dmc

// The edits the suite makes to its MJCF documents in Python (lxml) before compiling
// them (extra poles, swimmer links, an lqr chain, props removed, floors resized), done
// on the document's text so that everything not edited stays byte for byte as
// shipped. They know just enough XML for the suite's files: elements, double- or
// single-quoted attributes, comments and processing instructions.

import (
	"bytes"
	"fmt"
	"regexp"
)

// mjcfElement is one element of a document: its tag, the raw text of its attributes,
// and the byte spans of its start tag and of the whole element (up to and including its
// end tag, or the start tag alone when it is empty, as in <geom .../>).
type mjcfElement struct {
	tag         string
	attrs       []byte
	start, end  int // the whole element: doc[start:end]
	startTagEnd int // doc[start:startTagEnd] is the start tag
	selfClosing bool
	attrStart   int // doc[attrStart:attrStart+len(attrs)] are the attributes
}

// mjcfAttrPattern matches one attribute of a start tag, capturing its name and its
// quoted value.
var mjcfAttrPattern = regexp.MustCompile(`([A-Za-z_][\w.:-]*)\s*=\s*("[^"]*"|'[^']*')`)

// attr returns the value of an attribute of the element's start tag, and whether it
// has one.
func (e mjcfElement) attr(name string) (string, bool) {
	for _, m := range mjcfAttrPattern.FindAllSubmatch(e.attrs, -1) {
		if string(m[1]) == name {
			v := m[2]
			return string(v[1 : len(v)-1]), true
		}
	}
	return "", false
}

// mjcfElements lists the document's elements in document order (start tags), with
// their extents matched against their end tags.
func mjcfElements(doc []byte) ([]mjcfElement, error) {
	var out []mjcfElement
	var open []int // indexes into out of the elements not yet closed
	for i := 0; i < len(doc); {
		lt := bytes.IndexByte(doc[i:], '<')
		if lt < 0 {
			break
		}
		i += lt
		switch {
		case bytes.HasPrefix(doc[i:], []byte("<!--")):
			end := bytes.Index(doc[i:], []byte("-->"))
			if end < 0 {
				return nil, fmt.Errorf("unterminated comment at byte %d", i)
			}
			i += end + 3
		case bytes.HasPrefix(doc[i:], []byte("<?")), bytes.HasPrefix(doc[i:], []byte("<!")):
			end := bytes.IndexByte(doc[i:], '>')
			if end < 0 {
				return nil, fmt.Errorf("unterminated declaration at byte %d", i)
			}
			i += end + 1
		case bytes.HasPrefix(doc[i:], []byte("</")):
			end := bytes.IndexByte(doc[i:], '>')
			if end < 0 {
				return nil, fmt.Errorf("unterminated end tag at byte %d", i)
			}
			tag := string(bytes.TrimSpace(doc[i+2 : i+end]))
			if len(open) == 0 || out[open[len(open)-1]].tag != tag {
				return nil, fmt.Errorf("end tag </%s> at byte %d matches no open element", tag, i)
			}
			out[open[len(open)-1]].end = i + end + 1
			open = open[:len(open)-1]
			i += end + 1
		default:
			e, err := mjcfStartTag(doc, i)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
			if !e.selfClosing {
				open = append(open, len(out)-1)
			}
			i = e.startTagEnd
		}
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("element <%s> is never closed", out[open[len(open)-1]].tag)
	}
	return out, nil
}

// mjcfStartTag reads the start tag at doc[i] ('<'), skipping '>' inside quoted
// attribute values.
func mjcfStartTag(doc []byte, i int) (mjcfElement, error) {
	j := i + 1
	for j < len(doc) && !isXMLSpace(doc[j]) && doc[j] != '>' && doc[j] != '/' {
		j++
	}
	e := mjcfElement{tag: string(doc[i+1 : j]), start: i, attrStart: j}
	var quote byte
	for k := j; k < len(doc); k++ {
		c := doc[k]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			e.selfClosing = doc[k-1] == '/'
			attrEnd := k
			if e.selfClosing {
				attrEnd--
			}
			e.attrs = doc[j:attrEnd]
			e.startTagEnd = k + 1
			if e.selfClosing {
				e.end = k + 1
			}
			return e, nil
		}
	}
	return e, fmt.Errorf("unterminated start tag <%s at byte %d", e.tag, i)
}

// isXMLSpace reports whether c is XML white space, which ends an element's tag name.
func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// mjcfFind returns the first element with the tag whose name attribute is name (any
// name when name is ""), as the suite's xml_tools.find_element does.
func mjcfFind(doc []byte, tag, name string) (mjcfElement, bool, error) {
	elems, err := mjcfElements(doc)
	if err != nil {
		return mjcfElement{}, false, err
	}
	for _, e := range elems {
		if e.tag != tag {
			continue
		}
		if n, _ := e.attr("name"); name == "" || n == name {
			return e, true, nil
		}
	}
	return mjcfElement{}, false, nil
}

// mjcfCut removes doc[start:end] and, when only blanks stand between it and the start
// of its line, those blanks and the line's end too, so that no empty line is left.
func mjcfCut(doc []byte, start, end int) []byte {
	ls := start
	for ls > 0 && (doc[ls-1] == ' ' || doc[ls-1] == '\t') {
		ls--
	}
	if ls == 0 || doc[ls-1] == '\n' {
		le := end
		for le < len(doc) && (doc[le] == ' ' || doc[le] == '\t' || doc[le] == '\r') {
			le++
		}
		if le < len(doc) && doc[le] == '\n' {
			start, end = ls, le+1
		}
	}
	out := make([]byte, 0, len(doc)-(end-start))
	out = append(out, doc[:start]...)
	return append(out, doc[end:]...)
}

// removeNamedElements is the suite's xml_tools.find_element(...).getparent().remove(...)
// for each name: it removes the element <tag name="name"> with all it contains. A name
// the document lacks is an error (as find_element raises).
func removeNamedElements(doc []byte, tag string, names ...string) ([]byte, error) {
	for _, n := range names {
		e, ok, err := mjcfFind(doc, tag, n)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("dmc: the model has no <%s name=%q> to remove", tag, n)
		}
		doc = mjcfCut(doc, e.start, e.end)
	}
	return doc, nil
}

// removeAllElements removes every element with the tag (the suite's findall and
// remove, as quadruped's for its rangefinders).
func removeAllElements(doc []byte, tag string) ([]byte, error) {
	for {
		e, ok, err := mjcfFind(doc, tag, "")
		if err != nil || !ok {
			return doc, err
		}
		doc = mjcfCut(doc, e.start, e.end)
	}
}

// setElementAttr sets (replaces or adds) an attribute of the element <tag name="name">.
func setElementAttr(doc []byte, tag, name, attr, value string) ([]byte, error) {
	e, ok, err := mjcfFind(doc, tag, name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("dmc: the model has no <%s name=%q>", tag, name)
	}
	var out []byte
	for _, m := range mjcfAttrPattern.FindAllSubmatchIndex(e.attrs, -1) {
		if string(e.attrs[m[2]:m[3]]) == attr {
			vs, ve := e.attrStart+m[4], e.attrStart+m[5]
			out = append(out, doc[:vs]...)
			out = append(out, fmt.Sprintf("%q", value)...)
			return append(out, doc[ve:]...), nil
		}
	}
	at := e.attrStart + len(e.attrs)
	out = append(out, doc[:at]...)
	out = append(out, fmt.Sprintf(" %s=%q", attr, value)...)
	return append(out, doc[at:]...), nil
}

// appendToElement inserts text as the last content of the element <tag name="name">
// (the first <tag> when name is ""), before its end tag, as lxml's append does for a
// new child.
func appendToElement(doc []byte, tag, name, text string) ([]byte, error) {
	e, ok, err := mjcfFind(doc, tag, name)
	if err != nil {
		return nil, err
	}
	if !ok || e.selfClosing {
		return nil, fmt.Errorf("dmc: the model has no <%s name=%q> element to append to", tag, name)
	}
	at := bytes.LastIndex(doc[:e.end], []byte("</"))
	out := make([]byte, 0, len(doc)+len(text))
	out = append(out, doc[:at]...)
	out = append(out, text...)
	return append(out, doc[at:]...), nil
}
