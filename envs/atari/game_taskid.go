package atari

import "strings"

// TaskID returns the game's EnvPool task id ("Pong-v5", "MontezumaRevenge-v5"). EnvPool
// derives its ids mechanically from ALE's ROM names (envpool/atari/registration.py):
// split the name at "_", capitalize each part as Python's str.capitalize does (first
// letter upper case, the rest lower case) and append "-v5". So "tic_tac_toe_3d" is
// "TicTacToe3d-v5", "jamesbond" is "Jamesbond-v5" and "pitfall2" is "Pitfall2-v5"; no
// game needs an exception.
func (g Game) TaskID() string {
	var b strings.Builder
	for part := range strings.SplitSeq(g.Name, "_") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]))
		b.WriteString(strings.ToLower(part[1:]))
	}
	b.WriteString("-v5")
	return b.String()
}
