package minigrid

import (
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
)

// TestOneHot checks that the one_hot features decode to the byte observation of the
// same episode: one direction, one object per cell (with its colour and state where
// seen), and the mission's words counted.
func TestOneHot(t *testing.T) {
	for _, id := range []string{"BabyAI-GoToLocal-v0", "MiniGrid-KeyCorridorS3R3-v0", "BabyAI-PutNextLocal-v0"} {
		a := makeEnv(t, id, nil, 9)
		b := makeEnv(t, id, map[string]any{"one_hot": true}, 9)
		spec := b.config.spec(id)
		n := a.viewSize * a.viewSize
		size := 4 + n*hotCell + len(missionWords) + 1
		if spec.ObsSpace.DType != envpool.Float32 || spec.ObsSpace.Size() != size || spec.ObsLayout[1].Shape[2] != 20 {
			t.Fatalf("%s one_hot space %v, layout %v; want %d float32 values, 20 per cell", id, spec.ObsSpace, spec.ObsLayout, size)
		}
		f := make([]float32, size)
		for i := range 60 {
			u8, _ := observation(a)
			b.Observe(envpool.Obs{F32: f}, nil)
			if got := argmax(f[:4]); got != int(u8[0]) || sum(f[:4]) != 1 {
				t.Fatalf("%s step %d: direction features %v, want %d", id, i, f[:4], u8[0])
			}
			for k := range n {
				c := f[4+k*hotCell : 4+(k+1)*hotCell]
				kind, color, state := u8[1+3*k], u8[2+3*k], u8[3+3*k]
				want := float32(3)
				if kind == objUnseen {
					want = 1
				}
				if argmax(c[:hotKinds]) != int(kind) || sum(c) != want {
					t.Fatalf("%s step %d cell %d: features %v, bytes (%d %d %d)", id, i, k, c, kind, color, state)
				}
				if kind != objUnseen && (argmax(c[hotKinds:hotKinds+int(numColors)]) != int(color) || argmax(c[hotKinds+int(numColors):]) != int(state)) {
					t.Fatalf("%s step %d cell %d: features %v, bytes (%d %d %d)", id, i, k, c, kind, color, state)
				}
			}
			words := f[4+n*hotCell:]
			if int(sum(words)) != len(strings.FieldsFunc(a.mission, notLetter)) || words[len(missionWords)] != 0 {
				t.Fatalf("%s: mission %q counted %v", id, a.mission, words)
			}
			for _, w := range []string{"go", "the", "to"} {
				if strings.Contains(a.mission, w+" ") && words[wordIndex[w]] == 0 {
					t.Fatalf("%s: mission %q without %q in its counts %v", id, a.mission, w, words)
				}
			}
			act := (i*5 + 1) % numActions
			step(a, act)
			step(b, act)
		}
	}
}

// TestMissionVocabulary checks that the one_hot vocabulary holds every word of the
// missions every level writes, over many layouts of each id.
func TestMissionVocabulary(t *testing.T) {
	for _, id := range taskIDs() {
		for s := range int64(12) {
			e := makeEnv(t, id, nil, s)
			forEachWord(e.mission, func(w string) {
				if _, ok := wordIndex[w]; !ok {
					t.Fatalf("%s seed %d: mission %q has %q, not in the one_hot vocabulary", id, s, e.mission, w)
				}
			})
		}
	}
	var got []string
	forEachWord("Pick up the ball, then go to a red door.", func(w string) { got = append(got, w) })
	if strings.Join(got, " ") != "pick up the ball then go to a red door" {
		t.Fatalf("words %q", got)
	}
}

func notLetter(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }

func argmax(v []float32) int {
	k := 0
	for i, x := range v {
		if x > v[k] {
			k = i
		}
	}
	return k
}

func sum(v []float32) float32 {
	var s float32
	for _, x := range v {
		s += x
	}
	return s
}
