package dnnl

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestHeaderLayout compiles a C program against the installed oneDNN header and
// checks that every constant, structure size and field offset this package mirrors
// matches it. It skips when gcc or dnnl.h is missing.
func TestHeaderLayout(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found: skipping the header comparison")
	}
	if _, err := os.Stat("/usr/include/oneapi/dnnl/dnnl.h"); err != nil {
		if _, err := os.Stat("/usr/include/dnnl.h"); err != nil {
			t.Skip("dnnl.h not found (Debian package libdnnl-dev): skipping the header comparison")
		}
	}
	var md memDesc
	want := map[string]int64{
		"sizeof(dnnl_memory_desc_t)":                                     int64(unsafe.Sizeof(md)),
		"offsetof(dnnl_memory_desc_t, dims)":                             int64(unsafe.Offsetof(md.dims)),
		"offsetof(dnnl_memory_desc_t, data_type)":                        int64(unsafe.Offsetof(md.dataType)),
		"offsetof(dnnl_memory_desc_t, padded_dims)":                      int64(unsafe.Offsetof(md.paddedDims)),
		"offsetof(dnnl_memory_desc_t, padded_offsets)":                   int64(unsafe.Offsetof(md.paddedOffsets)),
		"offsetof(dnnl_memory_desc_t, offset0)":                          int64(unsafe.Offsetof(md.offset0)),
		"offsetof(dnnl_memory_desc_t, format_kind)":                      int64(unsafe.Offsetof(md.formatKind)),
		"offsetof(dnnl_memory_desc_t, format_desc)":                      int64(unsafe.Offsetof(md.strides)),
		"offsetof(dnnl_memory_desc_t, extra)":                            int64(unsafe.Offsetof(md.extra)),
		"offsetof(dnnl_memory_desc_t, format_desc.blocking.inner_nblks)": int64(unsafe.Offsetof(md.innerNblks)),
		"offsetof(dnnl_memory_desc_t, format_desc.blocking.inner_blks)":  int64(unsafe.Offsetof(md.innerBlks)),
		"offsetof(dnnl_memory_desc_t, format_desc.blocking.inner_idxs)":  int64(unsafe.Offsetof(md.innerIdxs)),
		"sizeof(dnnl_convolution_desc_t)":                                int64(unsafe.Sizeof(convDesc{})),
		"sizeof(dnnl_inner_product_desc_t)":                              int64(unsafe.Sizeof(ipDesc{})),
		"sizeof(dnnl_eltwise_desc_t)":                                    int64(unsafe.Sizeof(eltDesc{})),
		"sizeof(dnnl_exec_arg_t)":                                        int64(unsafe.Sizeof(execArg{})),
		"offsetof(dnnl_exec_arg_t, memory)":                              int64(unsafe.Offsetof(execArg{}.mem)),
		"sizeof(dnnl_dims_t)":                                            int64(unsafe.Sizeof(dims{})),
		"offsetof(dnnl_version_t, hash)":                                 int64(unsafe.Offsetof(versionInfo{}.Hash)),
		"sizeof(dnnl_version_t)":                                         int64(unsafe.Sizeof(versionInfo{})),
		"DNNL_MAX_NDIMS":                                                 maxDims,
		"dnnl_bf16":                                                      dtBF16,
		"dnnl_f32":                                                       dtF32,
		"dnnl_u8":                                                        dtU8,
		"dnnl_blocked":                                                   formatKindBlocked,
		"dnnl_format_tag_any":                                            tagAny,
		"dnnl_a":                                                         tagA,
		"dnnl_ab":                                                        tagAB,
		"dnnl_abcd":                                                      tagABCD,
		"dnnl_acdb":                                                      tagACDB,
		"dnnl_ba":                                                        tagBA,
		"dnnl_forward_training":                                          propForwardTraining,
		"dnnl_forward_inference":                                         propForwardInference,
		"dnnl_convolution_direct":                                        algConvDirect,
		"dnnl_eltwise_relu":                                              algEltReLU,
		"dnnl_eltwise_relu_use_dst_for_bwd":                              algEltReLUUseDstBack,
		"dnnl_query_impl_info_str":                                       queryImplInfoStr,
		"dnnl_query_src_md":                                              querySrcMD,
		"dnnl_query_diff_src_md":                                         queryDiffSrcMD,
		"dnnl_query_weights_md":                                          queryWeightsMD,
		"dnnl_query_diff_weights_md":                                     queryDiffWeightsM,
		"dnnl_query_dst_md":                                              queryDstMD,
		"dnnl_query_diff_dst_md":                                         queryDiffDstMD,
		"dnnl_query_scratchpad_md":                                       queryScratchpadMD,
		"dnnl_cpu":                                                       engineCPU,
		"dnnl_stream_default_flags":                                      streamDefaultFlags,
		"dnnl_scratchpad_mode_user":                                      scratchpadUser,
		"DNNL_ARG_SRC":                                                   argSrc,
		"DNNL_ARG_DST":                                                   argDst,
		"DNNL_ARG_WEIGHTS":                                               argWeights,
		"DNNL_ARG_BIAS":                                                  argBias,
		"DNNL_ARG_SCRATCHPAD":                                            argScratchpad,
		"DNNL_ARG_DIFF_SRC":                                              argDiffSrc,
		"DNNL_ARG_DIFF_DST":                                              argDiffDst,
		"DNNL_ARG_DIFF_WEIGHTS":                                          argDiffWeights,
		"DNNL_ARG_DIFF_BIAS":                                             argDiffBias,
		"DNNL_ARG_FROM":                                                  argFrom,
		"DNNL_ARG_TO":                                                    argTo,
	}
	var src bytes.Buffer
	src.WriteString("#include <stdio.h>\n#include <stddef.h>\n#include <dnnl.h>\nint main(void) {\n")
	for name := range want {
		fmt.Fprintf(&src, "\tprintf(\"%%s=%%lld\\n\", %q, (long long)(%s));\n", name, name)
	}
	src.WriteString("\treturn 0;\n}\n")
	dir := t.TempDir()
	cfile, bin := filepath.Join(dir, "layout.c"), filepath.Join(dir, "layout")
	if err := os.WriteFile(cfile, src.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gcc, "-o", bin, cfile).CombinedOutput(); err != nil {
		t.Fatalf("compiling the header check: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatalf("running the header check: %v", err)
	}
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			continue
		}
		got, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		seen++
		if want[name] != got {
			t.Errorf("%s: header says %d, Go mirror has %d", name, got, want[name])
		}
	}
	if seen != len(want) {
		t.Errorf("checked %d of %d values", seen, len(want))
	}
}
