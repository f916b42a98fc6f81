package mujoco

import (
	"fmt"
	"unsafe"
)

// fieldKind is the element type of an mjModel or mjData array.
type fieldKind uint8

const (
	kindF64 fieldKind = iota // mjtNum
	kindF32                  // float
	kindI32                  // int
	kindU8                   // mjtByte, char
)

var kindNames = [...]string{"float64", "float32", "int32", "uint8"}

// field locates one array of mjModel or mjData (zoffsets.go's tables, generated from
// mjxmacro.h): the byte offset of its pointer, its element kind, the mjModel size that
// counts its rows and its column count.
type field struct {
	off  uintptr
	kind fieldKind
	rows string
	cols int
}

// Size returns one of mjModel's int sizes by name ("nbody", "nsensordata", ...). It
// panics on a name mjModel does not have: names are fixed in code, and a wrong one is a
// programming error that any test reaching the call reports.
func (m *Model) Size(name string) int {
	off, ok := modelSizes[name]
	if !ok {
		panic(fmt.Sprintf("mujoco: mjModel has no size %q", name))
	}
	return m.int(off)
}

// array returns the pointer and element count of a named array of mjModel (base = the
// model) or mjData (base = the data).
func (m *Model) array(table map[string]field, base unsafe.Pointer, name string, kind fieldKind) (unsafe.Pointer, int) {
	f, ok := table[name]
	if !ok {
		panic(fmt.Sprintf("mujoco: no array %q in %s", name, tableName(table)))
	}
	if f.kind != kind {
		panic(fmt.Sprintf("mujoco: array %q holds %s, not %s", name, kindNames[f.kind], kindNames[kind]))
	}
	if f.cols == 0 {
		panic(fmt.Sprintf("mujoco: array %q has a column count this binding does not size", name))
	}
	n := m.Size(f.rows) * f.cols
	p := *(*unsafe.Pointer)(unsafe.Add(base, f.off))
	if n == 0 || p == nil {
		return nil, 0
	}
	return p, n
}

func tableName(t map[string]field) string {
	if _, ok := t["qpos0"]; ok {
		return "mjModel"
	}
	return "mjData"
}

func view[T any](p unsafe.Pointer, n int) []T {
	if p == nil {
		return nil
	}
	return unsafe.Slice((*T)(p), n)
}

// Float64s returns a view of the named mjtNum array of mjModel ("body_mass",
// "geom_size", ...), rows x cols row-major. Like Size it panics on a wrong name or
// element type. The view is valid while the Model is open; the model is shared, so it
// must not be written while envs run.
func (m *Model) Float64s(name string) []float64 {
	return view[float64](m.array(modelFields, m.p, name, kindF64))
}

// Float32s returns a view of the named float array of mjModel ("geom_rgba", ...).
func (m *Model) Float32s(name string) []float32 {
	return view[float32](m.array(modelFields, m.p, name, kindF32))
}

// Int32s returns a view of the named int array of mjModel ("jnt_qposadr", ...).
func (m *Model) Int32s(name string) []int32 {
	return view[int32](m.array(modelFields, m.p, name, kindI32))
}

// Bytes returns a view of the named mjtByte array of mjModel ("jnt_limited", ...).
func (m *Model) Bytes(name string) []uint8 {
	return view[uint8](m.array(modelFields, m.p, name, kindU8))
}

// Float64s returns a view of the named mjtNum array of mjData ("xmat", "sensordata",
// "subtree_com", ...), rows x cols row-major, valid until Close. It panics on a wrong
// name or element type, like Model.Float64s.
func (d *Data) Float64s(name string) []float64 {
	return view[float64](d.m.array(dataFields, d.p, name, kindF64))
}

// Int32s returns a view of the named int array of mjData.
func (d *Data) Int32s(name string) []int32 {
	return view[int32](d.m.array(dataFields, d.p, name, kindI32))
}

// Model returns the model the data belongs to.
func (d *Data) Model() *Model { return d.m }

// Contact is one entry of mjData's contact list.
type Contact struct {
	// Dist is the distance between the nearest points (negative: penetration).
	Dist float64
	// Pos is the contact point, Normal the contact frame's first axis.
	Pos, Normal [3]float64
	// Geom1 and Geom2 are the geom ids in contact.
	Geom1, Geom2 int
	// EfcAddress is the contact's first row in the constraint arrays (efc_force, ...),
	// or -1 when the contact is excluded from the constraint solver.
	EfcAddress int
}

// NCon is the number of contacts found by the last collision detection.
func (d *Data) NCon() int { return int(*(*int32)(unsafe.Add(d.p, offD_ncon))) }

// Contact returns contact i (0 <= i < NCon).
func (d *Data) Contact(i int) Contact {
	if i < 0 || i >= d.NCon() {
		panic(fmt.Sprintf("mujoco: contact %d of %d", i, d.NCon()))
	}
	base := *(*unsafe.Pointer)(unsafe.Add(d.p, offD_contact))
	c := unsafe.Add(base, uintptr(i)*sizeofMjContact)
	f := func(off uintptr) float64 { return *(*float64)(unsafe.Add(c, off)) }
	var out Contact
	out.Dist = f(offContact_dist)
	for k := range 3 {
		out.Pos[k] = f(offContact_pos + uintptr(8*k))
		out.Normal[k] = f(offContact_frame + uintptr(8*k))
	}
	out.Geom1 = int(*(*int32)(unsafe.Add(c, offContact_geom1)))
	out.Geom2 = int(*(*int32)(unsafe.Add(c, offContact_geom2)))
	out.EfcAddress = int(*(*int32)(unsafe.Add(c, offContact_efc_address)))
	return out
}
