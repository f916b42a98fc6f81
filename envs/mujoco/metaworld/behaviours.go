package metaworld

// behaviours gives each task, by its MetaWorld name, what it observes, how it resets
// and its reward.
// noSites marks the tasks whose models have no goal site to place.
var noSites = []string{}

var behaviours = map[string]behaviour{
	"assembly-v3":    {objects: siteBodyObs("RoundNut-8", vec3{}, "RoundNut"), reset: nutReset(true), reward: assemblyReward, mainGeom: "WrenchHandle", goalSites: []string{"pegTop"}},
	"disassemble-v3": {objects: siteBodyObs("RoundNut-8", vec3{}, "RoundNut"), reset: nutReset(false), reward: disassembleReward, mainGeom: "WrenchHandle", goalSites: []string{"pegTop"}},
	"basketball-v3":  {objects: bodyObs("bsktball"), reset: basketballReset, reward: basketballReward},
	"bin-picking-v3": {objects: bodyObs("obj"), reset: binPickingReset, reward: binPickingReward, goalSites: noSites},
	"box-close-v3":   {objects: bodyObs("top_link"), reset: boxCloseReset, reward: boxCloseReward, mainGeom: "BoxHandleGeom"},

	"button-press-topdown-v3":      {objects: offsetBodyObs("button", vec3{0, 0, 0.193}, true), reset: topdownButtonReset, reward: topdownButtonReward, mainGeom: "btnGeom", goalSites: noSites},
	"button-press-topdown-wall-v3": {objects: offsetBodyObs("button", vec3{0, 0, 0.193}, true), reset: topdownButtonReset, reward: topdownButtonReward, mainGeom: "btnGeom", goalSites: noSites},
	"button-press-v3":              {objects: offsetBodyObs("button", vec3{0, -0.193, 0}, true), reset: buttonReset, reward: buttonReward, mainGeom: "btnGeom", goalSites: noSites},
	"button-press-wall-v3":         {objects: offsetBodyObs("button", vec3{0, -0.193, 0}, true), reset: buttonReset, reward: buttonWallReward, mainGeom: "btnGeom", goalSites: noSites},

	"coffee-button-v3": {objects: func(e *Env, b *objectsBuf) { b.put(e.sitePos("buttonStart"), [4]float64{1, 0, 0, 0}) }, reset: coffeeButtonReset, reward: coffeeButtonReward, goalSites: []string{"coffee_goal"}},
	"coffee-pull-v3":   {objects: bodyGeomObs("obj", "mug"), reset: coffeeMugReset(true), reward: coffeeMugReward, mainGeom: "mug", goalSites: []string{"mug_goal"}},
	"coffee-push-v3":   {objects: bodyGeomObs("obj", "mug"), reset: coffeeMugReset(false), reward: coffeeMugReward, mainGeom: "mug", goalSites: []string{"mug_goal"}},
	"dial-turn-v3":     {objects: dialObs, reset: dialReset, reward: dialReward},

	"door-close-v3":  {objects: geomObs("handle"), reset: doorReset(vec3{0.2, -0.2, 0}, -1.5708), reward: doorCloseReward},
	"door-open-v3":   {objects: geomObs("handle"), reset: doorReset(vec3{-0.3, -0.45, 0}, 0), reward: doorOpenReward},
	"door-lock-v3":   {objects: siteBodyObs("lockStartLock", vec3{}, "door_link"), reset: doorLockReset, reward: doorLockReward, goalSites: noSites},
	"door-unlock-v3": {objects: siteBodyObs("lockStartUnlock", vec3{}, "door_link"), reset: doorUnlockReset, reward: doorUnlockReward, goalSites: noSites},
	"hand-insert-v3": {objects: bodyObs("obj"), reset: handInsertReset, reward: handInsertReward},

	"drawer-close-v3": {objects: offsetBodyObs("drawer_link", vec3{0, -0.16, 0.05}, false), reset: drawerCloseReset, reward: drawerCloseReward},
	"drawer-open-v3":  {objects: offsetBodyObs("drawer_link", vec3{0, -0.16, 0}, true), reset: drawerOpenReset, reward: drawerOpenReward},
	"faucet-open-v3":  {objects: siteBodyObs("handleStartOpen", vec3{0, 0, -0.01}, "faucetBase"), reset: faucetReset(vec3{0.175, 0, 0.125}), reward: faucetReward(true), goalSites: []string{"goal_open"}},
	"faucet-close-v3": {objects: siteBodyObs("handleStartClose", vec3{0, 0, -0.01}, "faucetBase"), reset: faucetReset(vec3{-0.175, 0, 0.125}), reward: faucetReward(false), goalSites: []string{"goal_close"}},

	"hammer-v3": {objects: func(e *Env, b *objectsBuf) {
		bodyObs("hammer")(e, b)
		bodyObs("nail_link")(e, b)
	}, reset: hammerReset, reward: hammerReward, mainGeom: "HammerHandle"},

	"handle-press-side-v3": {objects: siteObs("handleStart", vec3{}), reset: handlePressReset, reward: handlePressReward, goalSites: noSites},
	"handle-press-v3":      {objects: siteObs("handleStart", vec3{}), reset: handlePressReset, reward: handlePressReward, goalSites: noSites},
	"handle-pull-side-v3":  {objects: siteObs("handleCenter", vec3{}), reset: handlePullReset(true), reward: handlePullReward(true), goalSites: noSites},
	"handle-pull-v3":       {objects: siteObs("handleRight", vec3{}), reset: handlePullReset(false), reward: handlePullReward(false), goalSites: noSites},
	"lever-pull-v3": {objects: func(e *Env, b *objectsBuf) { b.put(e.sitePos("leverStart"), e.geomQuat("objGeom")) },
		reset: leverReset, reward: leverReward},

	"pick-place-wall-v3":  {objects: geomObs("objGeom"), reset: reachPushPick(false, true), reward: pickPlaceWallReward},
	"pick-out-of-hole-v3": {objects: bodyObs("obj"), reset: pickOutOfHoleReset, reward: pickOutOfHoleReward},
	"pick-place-v3":       {objects: bodyGeomObs("obj", "objGeom"), reset: reachPushPick(false, false), reward: pickPlaceReward},

	"plate-slide-v3":           {objects: geomObs("puck"), reset: plateSlideReset([2]float64{0, 0}, "puck_goal", false), reward: plateSlideReward(false)},
	"plate-slide-side-v3":      {objects: geomObs("puck"), reset: plateSlideReset([2]float64{0, 0}, "", false), reward: plateSlideReward(true)},
	"plate-slide-back-v3":      {objects: geomObs("puck"), reset: plateSlideReset([2]float64{0, 0.15}, "", false), reward: plateSlideReward(true)},
	"plate-slide-back-side-v3": {objects: geomObs("puck"), reset: plateSlideReset([2]float64{-0.15, 0}, "puck_goal", true), reward: plateSlideReward(true)},

	"peg-insert-side-v3": {objects: func(e *Env, b *objectsBuf) { b.put(e.sitePos("pegGrasp"), e.siteQuat("pegGrasp")) }, reset: pegInsertReset, reward: pegInsertReward},
	"peg-unplug-side-v3": {objects: siteBodyObs("pegEnd", vec3{}, "plug1"), reset: pegUnplugReset, reward: pegUnplugReward},
	"soccer-v3": {objects: func(e *Env, b *objectsBuf) { b.put(e.bodyPos("soccer_ball"), e.bodyQuatXYZW("soccer_ball")) },
		reset: soccerReset, reward: soccerReward},
	"stick-push-v3": {objects: stickObs(vec3{0, 0.09, 0}), reset: stickReset(0, true), reward: stickPushReward},
	"stick-pull-v3": {objects: stickObs(vec3{}), reset: stickReset(0.09, false), reward: stickPullReward},

	"push-v3":       {objects: geomObs("objGeom"), reset: reachPushPick(true, false), reward: pushReward},
	"push-wall-v3":  {objects: geomObs("objGeom"), reset: reachPushPick(true, true), reward: pushWallReward},
	"push-back-v3":  {objects: geomObs("objGeom"), reset: reachPushPick(true, true), reward: pushBackReward},
	"reach-v3":      {objects: bodyGeomObs("obj", "objGeom"), reset: reachPushPick(false, false), reward: reachReward(false)},
	"reach-wall-v3": {objects: bodyGeomObs("obj", "objGeom"), reset: reachPushPick(false, false), reward: reachReward(true)},

	"shelf-place-v3": {objects: bodyGeomObs("obj", "objGeom"), reset: shelfPlaceReset, reward: shelfPlaceReward},
	"sweep-into-v3":  {objects: bodyGeomObs("obj", "objGeom"), reset: sweepIntoReset, reward: sweepReward(true)},
	"sweep-v3":       {objects: bodyObs("obj"), reset: sweepReset, reward: sweepReward(false)},

	"window-open-v3":  {objects: siteObs("handleOpenStart", vec3{}), reset: windowReset(true), reward: windowReward(true)},
	"window-close-v3": {objects: siteObs("handleCloseStart", vec3{}), reset: windowReset(false), reward: windowReward(false)},
}
