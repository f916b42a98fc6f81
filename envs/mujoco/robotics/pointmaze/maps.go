package pointmaze

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Cell kinds of a maze map, Gymnasium-Robotics' maps.py letters: a wall, a free cell,
// a cell goals are drawn from, one resets are drawn from, and one for both.
const (
	cellWall     = '1'
	cellFree     = '0'
	cellGoal     = 'g'
	cellReset    = 'r'
	cellCombined = 'c'
)

// mazeMaps are the maps EnvPool's maze_map option names (Gymnasium-Robotics' maps.py),
// one string per row, top row first. The Diverse_G maps draw goals from several cells
// and resets from one; the Diverse_GR maps draw both from the same cells.
var mazeMaps = map[string][]string{
	"OPEN":            {"1111111", "1000001", "1000001", "1000001", "1111111"},
	"OPEN_DIVERSE_G":  {"1111111", "1rgggg1", "1ggggg1", "1ggggg1", "1111111"},
	"OPEN_DIVERSE_GR": {"1111111", "1ccccc1", "1ccccc1", "1ccccc1", "1111111"},
	"U_MAZE":          {"11111", "10001", "11101", "10001", "11111"},
	"MEDIUM_MAZE": {
		"11111111", "10011001", "10010001", "11000111",
		"10010001", "10100101", "10001001", "11111111",
	},
	"MEDIUM_MAZE_DIVERSE_G": {
		"11111111", "1r011001", "100100g1", "11000111",
		"10010001", "1g100101", "10001g01", "11111111",
	},
	"MEDIUM_MAZE_DIVERSE_GR": {
		"11111111", "1c011001", "100100c1", "11000111",
		"10010001", "1c100101", "10001c01", "11111111",
	},
	"LARGE_MAZE": {
		"111111111111", "100001000001", "101101010101",
		"100000010001", "101111011101", "100101000001",
		"110101010111", "100100010001", "111111111111",
	},
	"LARGE_MAZE_DIVERSE_G": {
		"111111111111", "1r0001g00001", "101101010101",
		"10000g0100g1", "101111011101", "10g101000001",
		"110101010111", "1001g0g10g01", "111111111111",
	},
	"LARGE_MAZE_DIVERSE_GR": {
		"111111111111", "1c0001c00001", "101101010101",
		"10000c0100c1", "101111011101", "10c101000001",
		"110101010111", "1001c0c10c01", "111111111111",
	},
}

// mapNames lists the maze_map values, sorted, for messages and the option's check.
func mapNames() []string {
	names := make([]string, 0, len(mazeMaps))
	for n := range mazeMaps {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// maze is a map laid out in the world: its rows, cell size and the cells goals and
// resets are drawn from, as cell centres (x, y).
type maze struct {
	rows    []string
	scaling float64
	goals   [][2]float64
	resets  [][2]float64
}

// newMaze lays out the named map with cells of side scaling, centred on the origin.
// Goals come from the g and c cells and resets from the r and c cells; a map with
// none of either kind draws it from the free cells (a plain map draws both from them).
func newMaze(name string, scaling float64) (*maze, error) {
	rows, ok := mazeMaps[name]
	if !ok {
		return nil, fmt.Errorf("maze_map %q is not a map (maps: %s)", name, strings.Join(mapNames(), ", "))
	}
	z := &maze{rows: rows, scaling: scaling}
	var free, combined [][2]float64
	for r, row := range rows {
		for c := range row {
			xy := z.cellCentre(r, c)
			switch row[c] {
			case cellFree:
				free = append(free, xy)
			case cellGoal:
				z.goals = append(z.goals, xy)
			case cellReset:
				z.resets = append(z.resets, xy)
			case cellCombined:
				combined = append(combined, xy)
			}
		}
	}
	switch {
	case len(z.goals) == 0 && len(z.resets) == 0 && len(combined) == 0:
		combined = free
	case len(z.resets) == 0 && len(combined) == 0:
		z.resets = free
	case len(z.goals) == 0 && len(combined) == 0:
		z.goals = free
	}
	z.goals = append(z.goals, combined...)
	z.resets = append(slices.Clip(z.resets), combined...)
	return z, nil
}

// cellCentre is the world (x, y) of the centre of cell (row, col): x grows with the
// column, y shrinks with the row, and the map's centre is the origin.
func (z *maze) cellCentre(row, col int) [2]float64 {
	xc := float64(len(z.rows[0])) * z.scaling / 2
	yc := float64(len(z.rows)) * z.scaling / 2
	return [2]float64{(float64(col)+0.5)*z.scaling - xc, yc - (float64(row)+0.5)*z.scaling}
}

// cellOf is the (row, col) of the cell holding world point (x, y).
func (z *maze) cellOf(x, y float64) (row, col int) {
	xc := float64(len(z.rows[0])) * z.scaling / 2
	yc := float64(len(z.rows)) * z.scaling / 2
	return int(math.Floor((yc - y) / z.scaling)), int(math.Floor((x + xc) / z.scaling))
}

// large reports whether the map is one of the large ones, which EnvPool's camera
// views from further away.
func (z *maze) large() bool { return len(z.rows) > 8 }

// xml is the point model with the maze's walls and the goal's target site added to its
// world body, as Gymnasium-Robotics' Maze.make_maze writes them: one box per wall cell
// (named block_<row>_<col>, height maze_height times the scaling), and a red sphere
// site "target" half-way up the walls.
func (z *maze) xml(point []byte, height float64) ([]byte, error) {
	doc := string(point)
	at := strings.LastIndex(doc, "</worldbody>")
	if at < 0 {
		return nil, fmt.Errorf("the point model has no </worldbody>")
	}
	half := z.scaling / 2
	zpos := height * z.scaling / 2
	var b strings.Builder
	for r, row := range z.rows {
		for c := range row {
			if row[c] != cellWall {
				continue
			}
			xy := z.cellCentre(r, c)
			fmt.Fprintf(&b, "    <geom name=\"block_%d_%d\" pos=\"%s %s %s\" size=\"%s %s %s\" type=\"box\" material=\"\" contype=\"1\" conaffinity=\"1\" rgba=\"0.7 0.5 0.3 1.0\"/>\n",
				r, c, num(xy[0]), num(xy[1]), num(zpos), num(half), num(half), num(zpos))
		}
	}
	fmt.Fprintf(&b, "    <site name=\"target\" pos=\"0 0 %s\" size=\"%s\" rgba=\"1 0 0 0.7\" type=\"sphere\"/>\n", num(zpos), num(0.2*z.scaling))
	return []byte(doc[:at] + b.String() + "  " + doc[at:]), nil
}

// num formats a number exactly (the shortest text that reads back as the same float).
func num(x float64) string { return fmt.Sprint(x) }
