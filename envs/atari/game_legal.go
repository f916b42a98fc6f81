package atari

// fireActions are the actions that press the fire button.
var fireActions = []Action{Fire, UpFire, RightFire, LeftFire, DownFire, UpRightFire, UpLeftFire, DownRightFire, DownLeftFire}

// illegalActions lists, per game, the actions ALE's RomSettings::isLegal rejects: in
// those games FIRE restarts the game (Lost Luggage) or has no use (Skiing), so ALE's
// act() turns them into NOOP. No other supported game overrides isLegal.
var illegalActions = map[string][]Action{
	"lost_luggage": fireActions,
	"skiing":       fireActions,
}

// IsLegal reports whether ALE lets action a through for this game (its
// RomSettings::isLegal); ALE's act() replaces an illegal action by NOOP before it is
// emulated. Agents that use the minimal action set never send one; the full 18-action
// set can.
func (g Game) IsLegal(a Action) bool {
	for _, bad := range illegalActions[g.Name] {
		if a == bad {
			return false
		}
	}
	return true
}
