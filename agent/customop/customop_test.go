package customop

import (
	"errors"
	"hash"
	"hash/fnv"
	"io"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

type named string

func (n named) WriteHash(h hash.Hash) { io.WriteString(h, string(n)) }

func TestHashIsFNVOfWriteHash(t *testing.T) {
	h := fnv.New32a()
	io.WriteString(h, "rlpool.nn.conv#7")
	if got, want := Hash(named("rlpool.nn.conv#7")), h.Sum32(); got != want {
		t.Fatalf("Hash = %#x, want %#x", got, want)
	}
	if Hash(named("rlpool.nn.conv#7")) == Hash(named("rlpool.nn.conv#8")) {
		t.Fatal("two op ids hash alike")
	}
}

func TestWrapReusesAndRestoresShape(t *testing.T) {
	buf := []float32{1, 2, 3, 4, 5, 6}
	var d *tensor.Dense
	a, err := Wrap(&d, buf, tensor.Shape{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	// A downstream Reshape changes the tensor in place; the next Wrap must undo it and
	// hand back the same tensor over the same buffer.
	if err := a.Reshape(3, 2); err != nil {
		t.Fatal(err)
	}
	b, err := Wrap(&d, buf, tensor.Shape{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if a != b || !b.Shape().Eq(tensor.Shape{2, 3}) {
		t.Fatalf("Wrap gave %p with shape %v, want %p with (2, 3)", b, b.Shape(), a)
	}
	buf[4] = 50
	if v, _ := b.At(1, 1); v != float32(50) {
		t.Fatalf("At(1,1) = %v, want the buffer's 50", v)
	}
	if _, err := Wrap(&d, buf, tensor.Shape{4, 2}); err == nil {
		t.Fatal("Wrap to a shape of another size did not fail")
	}
}

func TestOpMethods(t *testing.T) {
	var o Owned
	if o.ReturnsPtr() || o.CallsExtern() || o.OverwritesInput() != -1 {
		t.Fatal("Owned must say: no pointer result, no extern call, no input overwritten")
	}
	var g Grad
	if d := g.DiffWRT(3); len(d) != 3 || d[0] || d[1] || d[2] {
		t.Fatalf("Grad.DiffWRT(3) = %v, want three false", d)
	}
	if _, err := g.SymDiff(nil, nil, nil); !errors.Is(err, ErrNoSecondDerivative) {
		t.Fatalf("Grad.SymDiff error = %v, want ErrNoSecondDerivative", err)
	}
	if ty := TensorType(4, tensor.Float32); ty.(G.TensorType).Dims != 4 || ty.(G.TensorType).Of != tensor.Float32 {
		t.Fatalf("TensorType(4, float32) = %v", ty)
	}
}
