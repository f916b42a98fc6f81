// Command offsetgen writes zoffsets.go, the byte offsets of the mjModel and mjData fields
// that the mujoco package reads, taken from the installed MuJoCo headers.
//
// The binding loads libmujoco with purego and so has no C compiler to lay out MuJoCo's
// structs for it. Rather than hand-copying offsets (which break silently on any header
// change), this tool builds a tiny C program from mjxmacro.h's X-macros, the same lists
// MuJoCo uses for its own bindings, prints offsetof of every field and writes them as Go
// constants. The output is committed, so building the package never needs a C compiler;
// only regenerating does (`go generate ./envs/mujoco`, needs cc and Debian's libmujoco-dev).
//
// Usage: go run ./internal/offsetgen [-include /usr/include] [-cc cc] [-o zoffsets.go]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// program prints "name value" lines; the Go side turns each into a constant.
const program = `
#include <stddef.h>
#include <stdio.h>
#include <mujoco/mujoco.h>
#include <mujoco/mjxmacro.h>

#define P(name, value) printf("%s %ld\n", name, (long)(value))

int main(void) {
  P("mjVersionHeader", mjVERSION_HEADER);
  P("sizeofMjModel", sizeof(mjModel));
  P("sizeofMjData", sizeof(mjData));
  P("sizeofMjtNum", sizeof(mjtNum));
  P("sizeofMjVFS", sizeof(mjVFS));
  P("offVFS_nfile", offsetof(mjVFS, nfile));
  P("offVFS_filesize", offsetof(mjVFS, filesize));
  P("offVFS_filedata", offsetof(mjVFS, filedata));
  P("sizeofMjWarningStat", sizeof(mjWarningStat));
  P("offWarningStat_number", offsetof(mjWarningStat, number));

#define X(name) P("offM_" #name, offsetof(mjModel, name));
  MJMODEL_INTS
#undef X
#define X(type, name, nr, nc) P("offM_" #name, offsetof(mjModel, name));
  MJMODEL_POINTERS
#undef X
#define X(type, name) P("offM_opt_" #name, offsetof(mjModel, opt) + offsetof(mjOption, name));
  MJOPTION_SCALARS
#undef X
#define X(name, n) P("offM_opt_" #name, offsetof(mjModel, opt) + offsetof(mjOption, name));
  MJOPTION_VECTORS
#undef X
#define X(type, name, nr, nc) P("offD_" #name, offsetof(mjData, name));
  MJDATA_POINTERS
#undef X
#define X(type, name) P("offD_" #name, offsetof(mjData, name));
  MJDATA_SCALAR
#undef X
#define X(type, name, n, m) P("offD_" #name, offsetof(mjData, name));
  MJDATA_VECTOR
#undef X

  P("mjWARN_INERTIA", mjWARN_INERTIA);
  P("mjWARN_CONTACTFULL", mjWARN_CONTACTFULL);
  P("mjWARN_CNSTRFULL", mjWARN_CNSTRFULL);
  P("mjWARN_BADQPOS", mjWARN_BADQPOS);
  P("mjWARN_BADQVEL", mjWARN_BADQVEL);
  P("mjWARN_BADQACC", mjWARN_BADQACC);
  P("mjWARN_BADCTRL", mjWARN_BADCTRL);
  P("mjNWARNING", mjNWARNING);
  P("mjOBJ_BODY", mjOBJ_BODY);
  P("mjOBJ_JOINT", mjOBJ_JOINT);
  P("mjOBJ_GEOM", mjOBJ_GEOM);
  P("mjOBJ_SITE", mjOBJ_SITE);
  P("mjOBJ_ACTUATOR", mjOBJ_ACTUATOR);
  P("mjINT_EULER", mjINT_EULER);
  P("mjINT_RK4", mjINT_RK4);
  P("mjMAXVFSNAME", mjMAXVFSNAME);
  P("mjOBJ_XBODY", mjOBJ_XBODY);
  P("mjOBJ_CAMERA", mjOBJ_CAMERA);
  P("mjOBJ_TENDON", mjOBJ_TENDON);
  P("mjOBJ_SENSOR", mjOBJ_SENSOR);
  P("mjOBJ_MESH", mjOBJ_MESH);
  P("mjOBJ_MATERIAL", mjOBJ_MATERIAL);
  P("mjDSBL_ACTUATION", mjDSBL_ACTUATION);
  P("mjJNT_FREE", mjJNT_FREE);
  P("mjJNT_BALL", mjJNT_BALL);
  P("mjJNT_SLIDE", mjJNT_SLIDE);
  P("mjJNT_HINGE", mjJNT_HINGE);
  P("sizeofMjContact", sizeof(mjContact));
  P("offContact_dist", offsetof(mjContact, dist));
  P("offContact_pos", offsetof(mjContact, pos));
  P("offContact_frame", offsetof(mjContact, frame));
  P("offContact_geom1", offsetof(mjContact, geom1));
  P("offContact_geom2", offsetof(mjContact, geom2));
  P("offContact_efc_address", offsetof(mjContact, efc_address));

  // Rendering (render.go): the visualizer's and renderer's structs, the mjModel
  // settings a renderer reads, and the enum values it passes.
  P("sizeofMjvScene", sizeof(mjvScene));
  P("sizeofMjvCamera", sizeof(mjvCamera));
  P("sizeofMjvOption", sizeof(mjvOption));
  P("sizeofMjvPerturb", sizeof(mjvPerturb));
  P("sizeofMjrContext", sizeof(mjrContext));
  P("sizeofMjrRect", sizeof(mjrRect));
  P("offCamera_type", offsetof(mjvCamera, type));
  P("offCamera_fixedcamid", offsetof(mjvCamera, fixedcamid));
  P("offCamera_trackbodyid", offsetof(mjvCamera, trackbodyid));
  P("offCamera_lookat", offsetof(mjvCamera, lookat));
  P("offCamera_distance", offsetof(mjvCamera, distance));
  P("offCamera_azimuth", offsetof(mjvCamera, azimuth));
  P("offCamera_elevation", offsetof(mjvCamera, elevation));
  P("offRect_left", offsetof(mjrRect, left));
  P("offRect_bottom", offsetof(mjrRect, bottom));
  P("offRect_width", offsetof(mjrRect, width));
  P("offRect_height", offsetof(mjrRect, height));
  P("offContext_offWidth", offsetof(mjrContext, offWidth));
  P("offContext_offHeight", offsetof(mjrContext, offHeight));
  P("offContext_offSamples", offsetof(mjrContext, offSamples));
  P("offContext_currentBuffer", offsetof(mjrContext, currentBuffer));
  P("offScene_ngeom", offsetof(mjvScene, ngeom));
  P("offScene_nlight", offsetof(mjvScene, nlight));
  P("offScene_flags", offsetof(mjvScene, flags));
  P("offOption_flags", offsetof(mjvOption, flags));
  P("offM_vis_global_fovy", offsetof(mjModel, vis.global.fovy));
  P("offM_vis_global_azimuth", offsetof(mjModel, vis.global.azimuth));
  P("offM_vis_global_elevation", offsetof(mjModel, vis.global.elevation));
  P("offM_vis_global_offwidth", offsetof(mjModel, vis.global.offwidth));
  P("offM_vis_global_offheight", offsetof(mjModel, vis.global.offheight));
  P("offM_vis_offsamples", offsetof(mjModel, vis.quality.offsamples));
  P("offM_vis_shadowsize", offsetof(mjModel, vis.quality.shadowsize));
  P("offM_vis_headlight_active", offsetof(mjModel, vis.headlight.active));
  P("offM_stat_extent", offsetof(mjModel, stat.extent));
  P("offM_stat_center", offsetof(mjModel, stat.center));
  P("mjCAMERA_FREE", mjCAMERA_FREE);
  P("mjCAMERA_TRACKING", mjCAMERA_TRACKING);
  P("mjCAMERA_FIXED", mjCAMERA_FIXED);
  P("mjCAT_ALL", mjCAT_ALL);
  P("mjFB_WINDOW", mjFB_WINDOW);
  P("mjFB_OFFSCREEN", mjFB_OFFSCREEN);
  P("mjFONTSCALE_100", mjFONTSCALE_100);
  P("mjNRNDFLAG", mjNRNDFLAG);
  P("mjRND_SHADOW", mjRND_SHADOW);
  P("mjRND_REFLECTION", mjRND_REFLECTION);
  P("mjRND_SKYBOX", mjRND_SKYBOX);
  P("mjNVISFLAG", mjNVISFLAG);

  // The field table: "F model|data name ctype rows cols", where rows is the name of
  // an mjModel size and cols a number, or "?" when it is an expression of sizes.
#define COLS(nc) (__builtin_constant_p(nc) ? (long)(nc) : -1L)
#define F(s, type, name, nr, nc) printf("F %s %s %s %s %ld\n", s, #name, #type, #nr, COLS(nc))
#undef MJ_M
#define MJ_M(n) m->n
#define X(name) printf("S %s\n", #name);
  MJMODEL_INTS
#undef X
  {
    mjModel *m = NULL; (void)m;
#define X(type, name, nr, nc) F("model", type, name, nr, nc);
    MJMODEL_POINTERS
#undef X
#define X(type, name, nr, nc) F("data", type, name, nr, nc);
    MJDATA_POINTERS
#undef X
  }
  return 0;
}
`

func main() {
	include := flag.String("include", "/usr/include", "directory holding mujoco/mujoco.h (Debian: libmujoco-dev)")
	cc := flag.String("cc", "cc", "C compiler")
	out := flag.String("o", "zoffsets.go", "output Go file")
	flag.Parse()
	if err := run(*include, *cc, *out); err != nil {
		fmt.Fprintln(os.Stderr, "offsetgen:", err)
		os.Exit(1)
	}
}

func run(include, cc, out string) error {
	if _, err := os.Stat(filepath.Join(include, "mujoco", "mjxmacro.h")); err != nil {
		return fmt.Errorf("MuJoCo headers not found under %s (%v); install Debian's libmujoco-dev or pass -include", include, err)
	}
	dir, err := os.MkdirTemp("", "offsetgen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src, bin := filepath.Join(dir, "offsets.c"), filepath.Join(dir, "offsets")
	if err := os.WriteFile(src, []byte(program), 0o644); err != nil {
		return err
	}
	build := exec.Command(cc, "-I", include, "-o", bin, src)
	if msg, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("compiling the offset program with %s: %v\n%s", cc, err, msg)
	}
	lines, err := exec.Command(bin).Output()
	if err != nil {
		return fmt.Errorf("running the offset program: %v", err)
	}

	var b bytes.Buffer
	b.WriteString("// Code generated by internal/offsetgen from MuJoCo's installed headers; DO NOT EDIT.\n\n")
	b.WriteString("package mujoco\n\n")
	b.WriteString("// Layout of MuJoCo's structs, from mjxmacro.h and offsetof: offM_ fields are byte offsets\n")
	b.WriteString("// into mjModel (offM_opt_ into its mjOption), offD_ into mjData.\n")
	b.WriteString("const (\n")
	var fields []string
	for _, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		if strings.HasPrefix(line, "F ") || strings.HasPrefix(line, "S ") {
			fields = append(fields, line)
			continue
		}
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			return fmt.Errorf("unexpected line %q from the offset program", line)
		}
		fmt.Fprintf(&b, "\t%s = %s\n", name, value)
	}
	b.WriteString(")\n")
	if err := writeFields(&b, fields); err != nil {
		return err
	}
	src2, err := format.Source(b.Bytes())
	if err != nil {
		return err
	}
	return os.WriteFile(out, src2, 0o644)
}

// kinds maps the C element types of mjModel's and mjData's arrays to the fieldKind
// constants of the mujoco package; arrays of other types (structs) are left out.
var kinds = map[string]string{"mjtNum": "kindF64", "float": "kindF32", "int": "kindI32", "mjtByte": "kindU8", "char": "kindU8"}

// writeFields writes the table modelSizes from the "S" lines and the tables
// modelFields and dataFields from the "F" lines: for each
// array its offset, element kind, the mjModel size that counts its rows and its columns
// (0 when the column count is an expression of sizes, which the package does not size).
func writeFields(b *bytes.Buffer, lines []string) error {
	tables := map[string][]string{}
	var sizes []string
	for _, line := range lines {
		f := strings.Fields(line)
		if f[0] == "S" && len(f) == 2 {
			sizes = append(sizes, fmt.Sprintf("\t%q: offM_%s,\n", f[1], f[1]))
			continue
		}
		if len(f) != 6 {
			return fmt.Errorf("unexpected field line %q from the offset program", line)
		}
		st, name, ctype, rows, cols := f[1], f[2], f[3], f[4], f[5]
		kind, ok := kinds[ctype]
		if !ok {
			continue
		}
		if cols == "-1" {
			cols = "0"
		}
		prefix := map[string]string{"model": "offM_", "data": "offD_"}[st]
		tables[st] = append(tables[st], fmt.Sprintf("\t%q: {%s%s, %s, %q, %s},\n", name, prefix, name, kind, rows, cols))
	}
	b.WriteString("\n// modelSizes holds the offsets of mjModel's int sizes by name.\n")
	b.WriteString("var modelSizes = map[string]uintptr{\n")
	for _, l := range sizes {
		b.WriteString(l)
	}
	b.WriteString("}\n")
	for _, st := range []string{"model", "data"} {
		fmt.Fprintf(b, "\n// %sFields describes the arrays of mj%s: offset, element kind, the mjModel size\n", st, strings.ToUpper(st[:1])+st[1:])
		b.WriteString("// counting rows, and columns (0 when an expression of sizes).\n")
		fmt.Fprintf(b, "var %sFields = map[string]field{\n", st)
		for _, l := range tables[st] {
			b.WriteString(l)
		}
		b.WriteString("}\n")
	}
	return nil
}
