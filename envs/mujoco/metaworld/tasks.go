package metaworld

// taskDef is one MetaWorld v3 task: the facts of its source (the model file, the hand's
// bounds and start, the object's and goal's default positions, the ranges of the
// reset's random vector, the success radius) and its behaviour.
type taskDef struct {
	name, xml string
	// handLow and handHigh bound the mocap body (mocap_low and mocap_high default to
	// the hand's bounds); handInit is where a reset puts the hand.
	handLow, handHigh, handInit vec3
	// objInit and goalInit are obj_init_pos and the goal before a reset randomises them.
	objInit, goalInit vec3
	// randLow and randHigh bound the reset's random vector of randDim values
	// (_random_reset_space): the object's part, then the goal's.
	randLow, randHigh [6]float64
	randDim           int
	// targetRadius is TARGET_RADIUS, the distance to the goal that counts as there.
	targetRadius float64
	behaviour
}

// behaviour is what a task does beyond the shared arm: what it observes, how a reset
// places its objects and goal, and its reward.
type behaviour struct {
	// objects adds the observed objects' positions and quaternions (_get_pos_objects,
	// _get_quat_objects).
	objects func(e *Env, b *objectsBuf)
	// reset places the objects and the goal after the hand reset (reset_model).
	reset func(e *Env)
	// reward is compute_reward of the state after a step with action s.a.
	reward func(e *Env, s *scene) stepInfo
	// mainGeom is the geom the pads must press on to count as touching the main
	// object (objGeom unless the task says).
	mainGeom string
	// goalSites are the sites a step puts at the goal (_target_site_config; "goal"
	// when nil, none for noSites).
	goalSites []string
}

// scene is what a reward reads of the state after a step: the action, the current 18
// observation values and the hand, tool centre and first object positions.
type scene struct {
	a              [4]float64
	o              [frameLen]float64
	hand, tcp, obj vec3
	open           float64 // the fingers' opening, o[3]
}

// taskDefs is the task table, in EnvPool's registration order, with the numbers of
// MetaWorld v3.0.0's task classes.
var taskDefs = []*taskDef{
	{name: "assembly-v3", xml: "sawyer_assembly_peg.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.6000000238418579, 0.019999999552965164}, goalInit: vec3{0.10000000149011612, 0.800000011920929, 0.10000000149011612},
		randLow: [6]float64{0, 0.6, 0.02, -0.1, 0.75, 0.1}, randHigh: [6]float64{0, 0.6, 0.02, 0.1, 0.85, 0.1}, randDim: 6, targetRadius: 0.05},
	{name: "basketball-v3", xml: "sawyer_basketball.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.6000000238418579, 0.029999999329447746}, goalInit: vec3{0, 0.9, 0},
		randLow: [6]float64{-0.1, 0.6, 0.0299, -0.1, 0.85, 0}, randHigh: [6]float64{0.1, 0.7, 0.0301, 0.1, 0.9000001, 0}, randDim: 6, targetRadius: 0.08},
	{name: "bin-picking-v3", xml: "sawyer_bin_picking.xml",
		handLow: vec3{-0.5, 0.4, 0.07}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{-0.12, 0.7, 0.02}, goalInit: vec3{0.12, 0.7, 0.02},
		randLow: [6]float64{-0.21, 0.65, 0.02, 0.1199, 0.699, -0.001}, randHigh: [6]float64{-0.03, 0.75, 0.02, 0.1201, 0.701, 0.001}, randDim: 6, targetRadius: 0.05},
	{name: "box-close-v3", xml: "sawyer_box.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.550000011920929, 0.019999999552965164}, goalInit: vec3{0, 0.75, 0.133},
		randLow: [6]float64{-0.05, 0.5, 0.02, -0.1, 0.7, 0.133}, randHigh: [6]float64{0.05, 0.55, 0.02, 0.1, 0.8, 0.133}, randDim: 6, targetRadius: 0.05},
	{name: "button-press-topdown-v3", xml: "sawyer_button_press_topdown.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4000000059604645, 0.20000000298023224}, objInit: vec3{0, 0.800000011920929, 0.11500000208616257}, goalInit: vec3{0, 0.88, 0.1},
		randLow: [6]float64{-0.1, 0.8, 0.115, 0, 0, 0}, randHigh: [6]float64{0.1, 0.9, 0.115, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "button-press-topdown-wall-v3", xml: "sawyer_button_press_topdown_wall.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4000000059604645, 0.20000000298023224}, objInit: vec3{0, 0.800000011920929, 0.11500000208616257}, goalInit: vec3{0, 0.88, 0.1},
		randLow: [6]float64{-0.1, 0.8, 0.115, 0, 0, 0}, randHigh: [6]float64{0.1, 0.9, 0.115, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "button-press-v3", xml: "sawyer_button_press.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4000000059604645, 0.20000000298023224}, objInit: vec3{0, 0.8999999761581421, 0.11500000208616257}, goalInit: vec3{0, 0.78, 0.12},
		randLow: [6]float64{-0.1, 0.85, 0.115, 0, 0, 0}, randHigh: [6]float64{0.1, 0.9, 0.115, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "button-press-wall-v3", xml: "sawyer_button_press_wall.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4000000059604645, 0.20000000298023224}, objInit: vec3{0, 0.8999999761581421, 0.11500000208616257}, goalInit: vec3{0, 0.84, 0.12},
		randLow: [6]float64{-0.05, 0.85, 0.1149, 0, 0, 0}, randHigh: [6]float64{0.05, 0.9, 0.1151, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "coffee-button-v3", xml: "sawyer_coffee.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4, 0.2}, objInit: vec3{0, 0.9, 0.28}, goalInit: vec3{0, 0.78, 0.33},
		randLow: [6]float64{-0.1, 0.8, -0.001, 0, 0, 0}, randHigh: [6]float64{0.1, 0.9, 0.001, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "coffee-pull-v3", xml: "sawyer_coffee.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4, 0.2}, objInit: vec3{0, 0.75, 0}, goalInit: vec3{0, 0.6, 0},
		randLow: [6]float64{-0.05, 0.7, -0.001, -0.1, 0.55, -0.001}, randHigh: [6]float64{0.05, 0.75, 0.001, 0.1, 0.65, 0.001}, randDim: 6, targetRadius: 0.05},
	{name: "coffee-push-v3", xml: "sawyer_coffee.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4, 0.2}, objInit: vec3{0, 0.6, 0}, goalInit: vec3{0, 0.75, 0},
		randLow: [6]float64{-0.1, 0.55, -0.001, -0.05, 0.7, -0.001}, randHigh: [6]float64{0.1, 0.65, 0.001, 0.05, 0.75, 0.001}, randDim: 6, targetRadius: 0.05},
	{name: "dial-turn-v3", xml: "sawyer_dial.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.7, 0}, goalInit: vec3{0, 0.73, 0.08},
		randLow: [6]float64{-0.1, 0.7, 0, 0, 0, 0}, randHigh: [6]float64{0.1, 0.8, 0, 0, 0, 0}, randDim: 3, targetRadius: 0.07},
	{name: "disassemble-v3", xml: "sawyer_assembly_peg.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4000000059604645, 0.20000000298023224}, objInit: vec3{0, 0.7, 0.025}, goalInit: vec3{0, 0.8, 0.17},
		randLow: [6]float64{0, 0.6, 0.025, -0.1, 0.6, 0.1699}, randHigh: [6]float64{0.1, 0.75, 0.02501, 0.1, 0.75, 0.1701}, randDim: 6, targetRadius: 0.05},
	{name: "door-close-v3", xml: "sawyer_door_pull.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{-0.5, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0.10000000149011612, 0.949999988079071, 0.15000000596046448}, goalInit: vec3{0.2, 0.8, 0.15},
		randLow: [6]float64{0, 0.85, 0.15, 0, 0, 0}, randHigh: [6]float64{0.1, 0.95, 0.15, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "door-lock-v3", xml: "sawyer_door_lock.xml",
		handLow: vec3{-0.5, 0.4, -0.15}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.8500000238418579, 0.15000000596046448}, goalInit: vec3{0, 0.85, 0.1},
		randLow: [6]float64{-0.1, 0.8, 0.15, 0, 0, 0}, randHigh: [6]float64{0.1, 0.85, 0.15, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "door-open-v3", xml: "sawyer_door_pull.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0.1, 0.95, 0.15}, goalInit: vec3{-0.2, 0.7, 0.15},
		randLow: [6]float64{0, 0.85, 0.15, 0, 0, 0}, randHigh: [6]float64{0.1, 0.95, 0.15, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "door-unlock-v3", xml: "sawyer_door_lock.xml",
		handLow: vec3{-0.5, 0.4, -0.15}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.85, 0.15}, goalInit: vec3{0, 0.85, 0.1},
		randLow: [6]float64{-0.1, 0.8, 0.15, 0, 0, 0}, randHigh: [6]float64{0.1, 0.85, 0.15, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "hand-insert-v3", xml: "sawyer_table_with_hole.xml",
		handLow: vec3{-0.5, 0.4, -0.15}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.6, 0.05}, goalInit: vec3{0, 0.8399999737739563, -0.07999999821186066},
		randLow: [6]float64{-0.1, 0.6, 0.05, -0.04, 0.8, -0.0201}, randHigh: [6]float64{0.1, 0.7, 0.05, 0.04, 0.88, -0.0199}, randDim: 6, targetRadius: 0.05},
	{name: "drawer-close-v3", xml: "sawyer_drawer.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.8999999761581421, 0}, goalInit: vec3{0, 0.8999999761581421, 0},
		randLow: [6]float64{-0.1, 0.9, 0, 0, 0, 0}, randHigh: [6]float64{0.1, 0.9, 0, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "drawer-open-v3", xml: "sawyer_drawer.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.8999999761581421, 0}, goalInit: vec3{0, 0.8999999761581421, 0},
		randLow: [6]float64{-0.1, 0.9, 0, 0, 0, 0}, randHigh: [6]float64{0.1, 0.9, 0, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "faucet-open-v3", xml: "sawyer_faucet.xml",
		handLow: vec3{-0.5, 0.4, -0.15}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4, 0.2}, objInit: vec3{0, 0.8, 0}, goalInit: vec3{0, 0.8, 0},
		randLow: [6]float64{-0.05, 0.8, 0, 0, 0, 0}, randHigh: [6]float64{0.05, 0.85, 0, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "faucet-close-v3", xml: "sawyer_faucet.xml",
		handLow: vec3{-0.5, 0.4, -0.15}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4, 0.2}, objInit: vec3{0, 0.8, 0}, goalInit: vec3{0, 0.8, 0},
		randLow: [6]float64{-0.1, 0.8, 0, 0, 0, 0}, randHigh: [6]float64{0.1, 0.85, 0, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "hammer-v3", xml: "sawyer_hammer.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4, 0.2}, objInit: vec3{0, 0.5, 0}, goalInit: vec3{0, 0.5, 0},
		randLow: [6]float64{-0.1, 0.4, 0, 0, 0, 0}, randHigh: [6]float64{0.1, 0.5, 0, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "handle-press-side-v3", xml: "sawyer_handle_press_sideways.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{-0.3, 0.7, 0}, goalInit: vec3{-0.2, 0.7, 0.14},
		randLow: [6]float64{-0.35, 0.65, -0.001, 0, 0, 0}, randHigh: [6]float64{-0.25, 0.75, 0.001, 0, 0, 0}, randDim: 3, targetRadius: 0.02},
	{name: "handle-press-v3", xml: "sawyer_handle_press.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.9, 0}, goalInit: vec3{0, 0.8, 0.14},
		randLow: [6]float64{-0.1, 0.8, -0.001, 0, 0, 0}, randHigh: [6]float64{0.1, 0.9, 0.001, 0, 0, 0}, randDim: 3, targetRadius: 0.02},
	{name: "handle-pull-side-v3", xml: "sawyer_handle_press_sideways.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{-0.3, 0.7, 0}, goalInit: vec3{-0.2, 0.7, 0.14},
		randLow: [6]float64{-0.35, 0.65, 0, 0, 0, 0}, randHigh: [6]float64{-0.25, 0.75, 0, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "handle-pull-v3", xml: "sawyer_handle_press.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.9, 0}, goalInit: vec3{0, 0.8, 0.14},
		randLow: [6]float64{-0.1, 0.8, -0.001, 0, 0, 0}, randHigh: [6]float64{0.1, 0.9, 0.001, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "lever-pull-v3", xml: "sawyer_lever_pull.xml",
		handLow: vec3{-0.5, 0.4, -0.15}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4000000059604645, 0.20000000298023224}, objInit: vec3{0, 0.7, 0}, goalInit: vec3{0.12, 0.88, 0.05},
		randLow: [6]float64{-0.1, 0.7, 0, 0, 0, 0}, randHigh: [6]float64{0.1, 0.8, 0, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "pick-place-wall-v3", xml: "sawyer_pick_place_wall_v3.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{0.05, 0.8, 0.2},
		randLow: [6]float64{-0.05, 0.6, 0.015, -0.05, 0.85, 0.05}, randHigh: [6]float64{0.05, 0.65, 0.015, 0.05, 0.9, 0.3}, randDim: 6, targetRadius: 0.05},
	{name: "pick-out-of-hole-v3", xml: "sawyer_pick_out_of_hole.xml",
		handLow: vec3{-0.5, 0.4, -0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0}, goalInit: vec3{0, 0.6, 0.2},
		randLow: [6]float64{0, 0.75, 0.02, -0.1, 0.5, 0.15}, randHigh: [6]float64{0, 0.75, 0.02, 0.1, 0.6, 0.3}, randDim: 6, targetRadius: 0.05},
	{name: "pick-place-v3", xml: "sawyer_pick_place_v3.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{0.1, 0.8, 0.2},
		randLow: [6]float64{-0.1, 0.6, 0.02, -0.1, 0.8, 0.05}, randHigh: [6]float64{0.1, 0.7, 0.02, 0.1, 0.9, 0.3}, randDim: 6, targetRadius: 0.05},
	{name: "plate-slide-v3", xml: "sawyer_plate_slide.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.6000000238418579, 0}, goalInit: vec3{0, 0.85, 0.02},
		randLow: [6]float64{0, 0.6, 0, -0.1, 0.85, 0}, randHigh: [6]float64{0, 0.6, 0, 0.1, 0.9, 0}, randDim: 6, targetRadius: 0.05},
	{name: "plate-slide-side-v3", xml: "sawyer_plate_slide_sideway.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.6000000238418579, 0}, goalInit: vec3{-0.25, 0.6, 0.015},
		randLow: [6]float64{0, 0.6, 0, -0.3, 0.54, 0}, randHigh: [6]float64{0, 0.6, 0, -0.25, 0.66, 0}, randDim: 6, targetRadius: 0.05},
	{name: "plate-slide-back-v3", xml: "sawyer_plate_slide.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.8500000238418579, 0}, goalInit: vec3{0, 0.6, 0.015},
		randLow: [6]float64{0, 0.85, 0, -0.1, 0.6, 0.015}, randHigh: [6]float64{0, 0.85, 0, 0.1, 0.6, 0.015}, randDim: 6, targetRadius: 0.05},
	{name: "plate-slide-back-side-v3", xml: "sawyer_plate_slide_sideway.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{-0.25, 0.6000000238418579, 0.019999999552965164}, goalInit: vec3{0, 0.6, 0.015},
		randLow: [6]float64{-0.25, 0.6, 0, -0.05, 0.6, 0.015}, randHigh: [6]float64{-0.25, 0.6, 0, 0.15, 0.6, 0.015}, randDim: 6, targetRadius: 0.05},
	{name: "peg-insert-side-v3", xml: "sawyer_peg_insertion_side.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{-0.3, 0.6, 0},
		randLow: [6]float64{0, 0.5, 0.02, -0.35, 0.4, -0.001}, randHigh: [6]float64{0.2, 0.7, 0.02, -0.25, 0.7, 0.001}, randDim: 6, targetRadius: 0.07},
	{name: "peg-unplug-side-v3", xml: "sawyer_peg_unplug_side.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{-0.225, 0.6, 0.05}, goalInit: vec3{-0.225, 0.6, 0},
		randLow: [6]float64{-0.25, 0.6, -0.001, 0, 0, 0}, randHigh: [6]float64{-0.15, 0.8, 0.001, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "soccer-v3", xml: "sawyer_soccer.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.03}, goalInit: vec3{0, 0.9, 0.03},
		randLow: [6]float64{-0.1, 0.6, 0.03, -0.1, 0.8, 0}, randHigh: [6]float64{0.1, 0.7, 0.03, 0.1, 0.9, 0}, randDim: 6, targetRadius: 0.07},
	{name: "stick-push-v3", xml: "sawyer_stick_obj.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{-0.1, 0.6, 0.02}, goalInit: vec3{-0.1, 0.6, 0.02},
		randLow: [6]float64{-0.08, 0.58, 0, 0.399, 0.55, 0.1319}, randHigh: [6]float64{-0.03, 0.62, 0.001, 0.401, 0.6, 0.1321}, randDim: 6, targetRadius: 0.05},
	{name: "stick-pull-v3", xml: "sawyer_stick_obj.xml",
		handLow: vec3{-0.5, 0.35, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{0, 0.6, 0.02},
		randLow: [6]float64{-0.1, 0.55, 0, 0.35, 0.45, 0.0199}, randHigh: [6]float64{0, 0.65, 0.001, 0.45, 0.55, 0.0201}, randDim: 6, targetRadius: 0.05},
	{name: "push-v3", xml: "sawyer_push_v3.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{0.1, 0.8, 0.02},
		randLow: [6]float64{-0.1, 0.6, 0.02, -0.1, 0.8, 0.01}, randHigh: [6]float64{0.1, 0.7, 0.02, 0.1, 0.9, 0.02}, randDim: 6, targetRadius: 0.05},
	{name: "push-wall-v3", xml: "sawyer_push_wall_v3.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{0.05, 0.8, 0.015},
		randLow: [6]float64{-0.05, 0.6, 0.015, -0.05, 0.85, 0.01}, randHigh: [6]float64{0.05, 0.65, 0.015, 0.05, 0.9, 0.02}, randDim: 6, targetRadius: 0.05},
	{name: "push-back-v3", xml: "sawyer_push_back_v3.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.8, 0.02}, goalInit: vec3{0, 0.6, 0.02},
		randLow: [6]float64{-0.1, 0.8, 0.02, -0.1, 0.6, 0.0199}, randHigh: [6]float64{0.1, 0.85, 0.02, 0.1, 0.7, 0.0201}, randDim: 6, targetRadius: 0.05},
	{name: "reach-v3", xml: "sawyer_reach_v3.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{-0.1, 0.8, 0.2},
		randLow: [6]float64{-0.1, 0.6, 0.02, -0.1, 0.8, 0.05}, randHigh: [6]float64{0.1, 0.7, 0.02, 0.1, 0.9, 0.3}, randDim: 6, targetRadius: 0.05},
	{name: "reach-wall-v3", xml: "sawyer_reach_wall_v3.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{-0.05, 0.8, 0.2},
		randLow: [6]float64{-0.05, 0.6, 0.015, -0.05, 0.85, 0.05}, randHigh: [6]float64{0.05, 0.65, 0.015, 0.05, 0.9, 0.3}, randDim: 6, targetRadius: 0.05},
	{name: "shelf-place-v3", xml: "sawyer_shelf_placing.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6000000238418579, 0.20000000298023224}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{0, 0.8500000238418579, 0.3009999990463257},
		randLow: [6]float64{-0.1, 0.5, 0.019, -0.1, 0.8, 0.299}, randHigh: [6]float64{0.1, 0.6, 0.021, 0.1, 0.9, 0.301}, randDim: 6, targetRadius: 0.05},
	{name: "sweep-into-v3", xml: "sawyer_table_with_hole.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{0, 0.84, 0.02},
		randLow: [6]float64{-0.1, 0.6, 0.02, -0.001, 0.8399, 0.0199}, randHigh: [6]float64{0.1, 0.7, 0.02, 0.001, 0.8401, 0.0201}, randDim: 6, targetRadius: 0.05},
	{name: "sweep-v3", xml: "sawyer_sweep_v3.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.6, 0.2}, objInit: vec3{0, 0.6, 0.02}, goalInit: vec3{0.5, 0.65, 0.01},
		randLow: [6]float64{-0.1, 0.6, 0.02, 0, 0, 0}, randHigh: [6]float64{0.1, 0.7, 0.02, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "window-open-v3", xml: "sawyer_window_horizontal.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4000000059604645, 0.20000000298023224}, objInit: vec3{-0.10000000149011612, 0.7850000262260437, 0.1599999964237213}, goalInit: vec3{-0.10000000149011612, 0.7850000262260437, 0.1599999964237213},
		randLow: [6]float64{-0.1, 0.7, 0.16, 0, 0, 0}, randHigh: [6]float64{0.1, 0.9, 0.16, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
	{name: "window-close-v3", xml: "sawyer_window_horizontal.xml",
		handLow: vec3{-0.5, 0.4, 0.05}, handHigh: vec3{0.5, 1, 0.5},
		handInit: vec3{0, 0.4000000059604645, 0.20000000298023224}, objInit: vec3{0.10000000149011612, 0.7850000262260437, 0.1599999964237213}, goalInit: vec3{0.10000000149011612, 0.7850000262260437, 0.1599999964237213},
		randLow: [6]float64{0, 0.75, 0.2, 0, 0, 0}, randHigh: [6]float64{0, 0.9, 0.2, 0, 0, 0}, randDim: 3, targetRadius: 0.05},
}

func init() {
	for _, d := range taskDefs {
		b, ok := behaviours[d.name]
		if !ok {
			panic("metaworld: no behaviour for " + d.name)
		}
		if b.mainGeom == "" {
			b.mainGeom = "objGeom"
		}
		if b.goalSites == nil {
			b.goalSites = []string{"goal"}
		}
		d.behaviour = b
	}
}
