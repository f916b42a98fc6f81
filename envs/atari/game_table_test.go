package atari

import (
	"regexp"
	"slices"
	"sort"
	"testing"
)

// aleGameNames are the ROM names of ALE's 104 single-player games, transcribed from
// ALE's ROM table (the md5 map of Farama-Foundation/AutoROM and ALE's
// src/ale/games/Roms.cpp, less the four multi-player additions combat, joust,
// maze_craze and warlords), sorted. It guards the table against typos.
var aleGameNames = []string{
	"adventure", "air_raid", "alien", "amidar", "assault", "asterix", "asteroids",
	"atlantis", "atlantis2", "backgammon", "bank_heist", "basic_math", "battle_zone",
	"beam_rider", "berzerk", "blackjack", "bowling", "boxing", "breakout", "carnival",
	"casino", "centipede", "chopper_command", "crazy_climber", "crossbow", "darkchambers",
	"defender", "demon_attack", "donkey_kong", "double_dunk", "earthworld",
	"elevator_action", "enduro", "entombed", "et", "fishing_derby", "flag_capture",
	"freeway", "frogger", "frostbite", "galaxian", "gopher", "gravitar", "hangman",
	"haunted_house", "hero", "human_cannonball", "ice_hockey", "jamesbond",
	"journey_escape", "kaboom", "kangaroo", "keystone_kapers", "king_kong", "klax",
	"koolaid", "krull", "kung_fu_master", "laser_gates", "lost_luggage", "mario_bros",
	"miniature_golf", "montezuma_revenge", "mr_do", "ms_pacman", "name_this_game",
	"othello", "pacman", "phoenix", "pitfall", "pitfall2", "pong", "pooyan",
	"private_eye", "qbert", "riverraid", "road_runner", "robotank", "seaquest",
	"sir_lancelot", "skiing", "solaris", "space_invaders", "space_war", "star_gunner",
	"superman", "surround", "tennis", "tetris", "tic_tac_toe_3d", "time_pilot",
	"trondead", "turmoil", "tutankham", "up_n_down", "venture", "video_checkers",
	"video_chess", "video_cube", "video_pinball", "wizard_of_wor", "word_zapper",
	"yars_revenge", "zaxxon",
}

// aleMD5s is ALE's md5 of each supported ROM, transcribed from AutoROM's checksum map
// (the same values as the md5() of each game's ALE settings class).
var aleMD5s = map[string]string{
	"adventure": "4b27f5397c442d25f0c418ccdacf1926", "air_raid": "35be55426c1fec32dfb503b4f0651572",
	"alien": "f1a0a23e6464d954e3a9579c4ccd01c8", "amidar": "acb7750b4d0c4bd34969802a7deb2990",
	"assault": "de78b3a064d374390ac0710f95edde92", "asterix": "89a68746eff7f266bbf08de2483abe55",
	"asteroids": "ccbd36746ed4525821a8083b0d6d2c2c", "atlantis2": "826481f6fc53ea47c9f272f7050eedf7",
	"atlantis": "9ad36e699ef6f45d9eb6c4cf90475c9f", "backgammon": "8556b42aa05f94bc29ff39c39b11bff4",
	"bank_heist": "00ce0bdd43aed84a983bef38fe7f5ee3", "basic_math": "819aeeb9a2e11deb54e6de334f843894",
	"battle_zone": "41f252a66c6301f1e8ab3612c19bc5d4", "beam_rider": "79ab4123a83dc11d468fb2108ea09e2e",
	"berzerk": "136f75c4dd02c29283752b7e5799f978", "blackjack": "0a981c03204ac2b278ba392674682560",
	"bowling": "c9b7afad3bfd922e006a6bfc1d4f3fe7", "boxing": "c3ef5c4653212088eda54dc91d787870",
	"breakout": "f34f08e5eb96e500e851a80be3277a56", "carnival": "028024fb8e5e5f18ea586652f9799c96",
	"casino": "b816296311019ab69a21cb9e9e235d12", "centipede": "91c2098e88a6b13f977af8c003e0bca5",
	"chopper_command": "c1cb228470a87beb5f36e90ac745da26", "crazy_climber": "55ef7b65066428367844342ed59f956c",
	"crossbow": "8cd26dcf249456fe4aeb8db42d49df74", "darkchambers": "106855474c69d08c8ffa308d47337269",
	"defender": "0f643c34e40e3f1daafd9c524d3ffe64", "demon_attack": "f0e0addc07971561ab80d9abe1b8d333",
	"donkey_kong": "36b20c427975760cb9cf4a47e41369e4", "double_dunk": "368d88a6c071caba60b4f778615aae94",
	"earthworld": "5aea9974b975a6a844e6df10d2b861c4", "elevator_action": "71f8bacfbdca019113f3f0801849057e",
	"enduro": "94b92a882f6dbaa6993a46e2dcc58402", "entombed": "6b683be69f92958abe0e2a9945157ad5",
	"et": "615a3bf251a38eb6638cdc7ffbde5480", "fishing_derby": "b8865f05676e64f3bec72b9defdacfa7",
	"flag_capture": "30512e0e83903fc05541d2f6a6a62654", "freeway": "8e0ab801b1705a740b476b7f588c6d16",
	"frogger": "081e2c114c9c20b61acf25fc95c71bf4", "frostbite": "4ca73eb959299471788f0b685c3ba0b5",
	"galaxian": "211774f4c5739042618be8ff67351177", "gopher": "c16c79aad6272baffb8aae9a7fff0864",
	"gravitar": "8ac18076d01a6b63acf6e2cab4968940", "hangman": "f16c709df0a6c52f47ff52b9d95b7d8d",
	"haunted_house": "f0a6e99f5875891246c3dbecbf2d2cea", "hero": "fca4a5be1251927027f2c24774a02160",
	"human_cannonball": "7972e5101fa548b952d852db24ad6060", "ice_hockey": "a4c08c4994eb9d24fb78be1793e82e26",
	"jamesbond": "e51030251e440cffaab1ac63438b44ae", "journey_escape": "718ae62c70af4e5fd8e932fee216948a",
	"kaboom": "5428cdfada281c569c74c7308c7f2c26", "kangaroo": "4326edb70ff20d0ee5ba58fa5cb09d60",
	"keystone_kapers": "6c1f3f2e359dbf55df462ccbcdd2f6bf", "king_kong": "0dd4c69b5f9a7ae96a7a08329496779a",
	"klax": "eed9eaf1a0b6a2b9bc4c8032cb43e3fb", "koolaid": "534e23210dd1993c828d944c6ac4d9fb",
	"krull": "4baada22435320d185c95b7dd2bcdb24", "kung_fu_master": "5b92a93b23523ff16e2789b820e2a4c5",
	"laser_gates": "8e4cd60d93fcde8065c1a2b972a26377", "lost_luggage": "2d76c5d1aad506442b9e9fb67765e051",
	"mario_bros": "e908611d99890733be31733a979c62d8", "miniature_golf": "df62a658496ac98a3aa4a6ee5719c251",
	"montezuma_revenge": "3347a6dd59049b15a38394aa2dafa585", "mr_do": "aa7bb54d2c189a31bb1fa20099e42859",
	"ms_pacman": "87e79cd41ce136fd4f72cc6e2c161bee", "name_this_game": "36306070f0c90a72461551a7a4f3a209",
	"othello": "113cd09c9771ac278544b7e90efe7df2", "pacman": "fc2233fc116faef0d3c31541717ca2db",
	"phoenix": "7e52a95074a66640fcfde124fffd491a", "pitfall2": "6d842c96d5a01967be9680080dd5be54",
	"pitfall": "3e90cf23106f2e08b2781e41299de556", "pong": "60e0ea3cbe0913d39803477945e9e5ec",
	"pooyan": "4799a40b6e889370b7ee55c17ba65141", "private_eye": "ef3a4f64b6494ba770862768caf04b86",
	"qbert": "484b0076816a104875e00467d431c2d2", "riverraid": "393948436d1f4cc3192410bb918f9724",
	"road_runner": "ce5cc62608be2cd3ed8abd844efb8919", "robotank": "4f618c2429138e0280969193ed6c107e",
	"seaquest": "240bfbac5163af4df5ae713985386f92", "sir_lancelot": "dd0cbe5351551a538414fb9e37fc56e8",
	"skiing": "b76fbadc8ffb1f83e2ca08b6fb4d6c9f", "solaris": "e72eb8d4410152bdcb69e7fba327b420",
	"space_invaders": "72ffbef6504b75e69ee1045af9075f66", "space_war": "b702641d698c60bcdc922dbd8c9dd49c",
	"star_gunner": "a3c1c70024d7aabb41381adbfb6d3b25", "superman": "a9531c763077464307086ec9a1fd057d",
	"surround": "4d7517ae69f95cfbc053be01312b7dba", "tennis": "42cdd6a9e42a3639e190722b8ea3fc51",
	"tetris": "b0e1ee07fbc73493eac5651a52f90f00", "tic_tac_toe_3d": "0db4f4150fecf77e4ce72ca4d04c052f",
	"time_pilot": "fc2104dd2dadf9a6176c1c1c8f87ced9", "trondead": "fb27afe896e7c928089307b32e5642ee",
	"turmoil": "7a5463545dfb2dcfdafa6074b2f2c15e", "tutankham": "085322bae40d904f53bdcc56df0593fc",
	"up_n_down": "a499d720e7ee35c62424de882a3351b6", "venture": "3e899eba0ca8cd2972da1ae5479b4f0d",
	"video_checkers": "539d26b6e9df0da8e7465f0f5ad863b7", "video_chess": "f0b7db930ca0e548c41a97160b9f6275",
	"video_cube": "3f540a30fdee0b20aed7288e4a5ea528", "video_pinball": "107cc025334211e6d29da0b6be46aec7",
	"wizard_of_wor": "7e8aa18bc9502eb57daaf5e7c1e94da7", "word_zapper": "ec3beb6d8b5689e867bafb5d5f507491",
	"yars_revenge": "c5930d0e8cdae3e037349bfa08e871be", "zaxxon": "eea0da9b987d661264cce69a7c13c3bd",
}

// envpoolTaskIDs are EnvPool's 104 Atari task ids, transcribed from its documentation
// (docs/env/atari.rst), in its order: sorted by ALE ROM name.
var envpoolTaskIDs = []string{
	"Adventure-v5", "AirRaid-v5", "Alien-v5", "Amidar-v5", "Assault-v5", "Asterix-v5",
	"Asteroids-v5", "Atlantis-v5", "Atlantis2-v5", "Backgammon-v5", "BankHeist-v5",
	"BasicMath-v5", "BattleZone-v5", "BeamRider-v5", "Berzerk-v5", "Blackjack-v5",
	"Bowling-v5", "Boxing-v5", "Breakout-v5", "Carnival-v5", "Casino-v5", "Centipede-v5",
	"ChopperCommand-v5", "CrazyClimber-v5", "Crossbow-v5", "Darkchambers-v5",
	"Defender-v5", "DemonAttack-v5", "DonkeyKong-v5", "DoubleDunk-v5", "Earthworld-v5",
	"ElevatorAction-v5", "Enduro-v5", "Entombed-v5", "Et-v5", "FishingDerby-v5",
	"FlagCapture-v5", "Freeway-v5", "Frogger-v5", "Frostbite-v5", "Galaxian-v5",
	"Gopher-v5", "Gravitar-v5", "Hangman-v5", "HauntedHouse-v5", "Hero-v5",
	"HumanCannonball-v5", "IceHockey-v5", "Jamesbond-v5", "JourneyEscape-v5", "Kaboom-v5",
	"Kangaroo-v5", "KeystoneKapers-v5", "KingKong-v5", "Klax-v5", "Koolaid-v5", "Krull-v5",
	"KungFuMaster-v5", "LaserGates-v5", "LostLuggage-v5", "MarioBros-v5",
	"MiniatureGolf-v5", "MontezumaRevenge-v5", "MrDo-v5", "MsPacman-v5",
	"NameThisGame-v5", "Othello-v5", "Pacman-v5", "Phoenix-v5", "Pitfall-v5",
	"Pitfall2-v5", "Pong-v5", "Pooyan-v5", "PrivateEye-v5", "Qbert-v5", "Riverraid-v5",
	"RoadRunner-v5", "Robotank-v5", "Seaquest-v5", "SirLancelot-v5", "Skiing-v5",
	"Solaris-v5", "SpaceInvaders-v5", "SpaceWar-v5", "StarGunner-v5", "Superman-v5",
	"Surround-v5", "Tennis-v5", "Tetris-v5", "TicTacToe3d-v5", "TimePilot-v5",
	"Trondead-v5", "Turmoil-v5", "Tutankham-v5", "UpNDown-v5", "Venture-v5",
	"VideoCheckers-v5", "VideoChess-v5", "VideoCube-v5", "VideoPinball-v5",
	"WizardOfWor-v5", "WordZapper-v5", "YarsRevenge-v5", "Zaxxon-v5",
}

// minimalWithoutNoop are the games whose ALE minimal action set leaves NOOP out
// (their isMinimal rejects it).
var minimalWithoutNoop = map[string]bool{"backgammon": true, "video_checkers": true}

// withoutDifficultyZero are the games whose ALE difficulty list lacks 0 (ALE still
// starts them at difficulty 0 unless told otherwise).
var withoutDifficultyZero = map[string]bool{"backgammon": true}

func TestGameCount(t *testing.T) {
	if len(supportedGames) != 104 || len(aleGameNames) != 104 || len(aleMD5s) != 104 || len(envpoolTaskIDs) != 104 {
		t.Fatalf("%d games in the table, %d names, %d md5s, %d task ids; ALE supports 104",
			len(supportedGames), len(aleGameNames), len(aleMD5s), len(envpoolTaskIDs))
	}
}

func TestGameNamesMatchALEList(t *testing.T) {
	if !slices.IsSorted(aleGameNames) {
		t.Fatal("aleGameNames is not sorted")
	}
	if got := GameNames(); !slices.Equal(got, aleGameNames) {
		for _, n := range aleGameNames {
			if _, ok := GameByName(n); !ok {
				t.Errorf("ALE game %q is not in the table", n)
			}
		}
		for _, n := range got {
			if !slices.Contains(aleGameNames, n) {
				t.Errorf("table game %q is not one of ALE's", n)
			}
		}
		t.Fatalf("GameNames() = %v", got)
	}
}

func TestGameMD5sMatchALETable(t *testing.T) {
	for name, sum := range aleMD5s {
		g, ok := GameByName(name)
		if !ok {
			t.Errorf("%s: not in the table", name)
			continue
		}
		if g.MD5 != sum {
			t.Errorf("%s: md5 %s, ALE's is %s", name, g.MD5, sum)
		}
		if byMD5, ok := GameByMD5(sum); !ok || byMD5.Name != name {
			t.Errorf("GameByMD5(%s) = %q, %v; want %s", sum, byMD5.Name, ok, name)
		}
	}
}

func TestTaskIDsMatchEnvPool(t *testing.T) {
	games := Games()
	if len(games) != len(envpoolTaskIDs) {
		t.Fatalf("%d games, %d EnvPool ids", len(games), len(envpoolTaskIDs))
	}
	seen := map[string]string{}
	for i, g := range games {
		id := g.TaskID()
		if id != envpoolTaskIDs[i] {
			t.Errorf("%s: TaskID() = %q, EnvPool registers %q", g.Name, id, envpoolTaskIDs[i])
		}
		if other, dup := seen[id]; dup {
			t.Errorf("%s and %s share task id %s", other, g.Name, id)
		}
		seen[id] = g.Name
	}
	for name, want := range map[string]string{
		"tic_tac_toe_3d": "TicTacToe3d-v5", "up_n_down": "UpNDown-v5", "pitfall2": "Pitfall2-v5",
		"ms_pacman": "MsPacman-v5", "jamesbond": "Jamesbond-v5", "video_pinball": "VideoPinball-v5",
	} {
		if g, _ := GameByName(name); g.TaskID() != want {
			t.Errorf("%s: TaskID() = %q, want %q", name, g.TaskID(), want)
		}
	}
}

// TestGameFacts checks the invariants every ALE game definition satisfies.
func TestGameFacts(t *testing.T) {
	nameRE := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	md5RE := regexp.MustCompile(`^[0-9a-f]{32}$`)
	names, sums := map[string]bool{}, map[string]bool{}
	for _, g := range supportedGames {
		if !nameRE.MatchString(g.Name) || names[g.Name] {
			t.Errorf("name %q is not a unique lowercase ROM name", g.Name)
		}
		names[g.Name] = true
		if !md5RE.MatchString(g.MD5) || sums[g.MD5] {
			t.Errorf("%s: md5 %q is not a unique lowercase hex md5", g.Name, g.MD5)
		}
		sums[g.MD5] = true

		acts := g.MinimalActions
		if len(acts) == 0 {
			t.Errorf("%s: empty minimal action set", g.Name)
			continue
		}
		for i, a := range acts {
			if a < 0 || a >= NumActions || i > 0 && a <= acts[i-1] {
				t.Errorf("%s: minimal actions %v are not distinct ALE ids in ascending order", g.Name, acts)
				break
			}
		}
		if (acts[0] == Noop) == minimalWithoutNoop[g.Name] {
			t.Errorf("%s: minimal actions %v; NOOP first is expected unless ALE leaves NOOP out", g.Name, acts)
		}
		for _, a := range g.StartingActions {
			if (a < 0 || a >= NumActions) && a != actionReset {
				t.Errorf("%s: starting action %d is neither an ALE action nor RESET", g.Name, a)
			}
		}

		modes := g.Modes
		if len(modes) == 0 {
			modes = []int{0}
		}
		if len(slices.Compact(slices.Clone(modes))) != len(modes) || !g.HasMode(g.DefaultMode()) || g.DefaultMode() != modes[0] {
			t.Errorf("%s: modes %v are not distinct or the default %d is not the first", g.Name, modes, g.DefaultMode())
		}
		if len(modes) > 1 && g.setMode == nil {
			t.Errorf("%s: %d modes but no mode selection", g.Name, len(modes))
		}
		diffs := g.Difficulties
		if len(diffs) == 0 {
			diffs = []int{0}
		}
		if !slices.IsSorted(diffs) || diffs[0] < 0 || diffs[len(diffs)-1] > 3 {
			t.Errorf("%s: difficulties %v are not ascending values of 0..3", g.Name, diffs)
		}
		if g.HasDifficulty(0) == withoutDifficultyZero[g.Name] {
			t.Errorf("%s: difficulty 0 available = %v, unexpected", g.Name, g.HasDifficulty(0))
		}

		if g.NewReader == nil {
			t.Errorf("%s: no reader", g.Name)
			continue
		}
		r1, r2 := g.NewReader(), g.NewReader()
		if r1 == nil || r1 == r2 {
			t.Errorf("%s: NewReader must return a fresh reader each time", g.Name)
			continue
		}
		if r1.Reward() != 0 || r1.Terminal() {
			t.Errorf("%s: a new reader has reward %d, terminal %v", g.Name, r1.Reward(), r1.Terminal())
		}
		r1.Reset()
		if r1.Reward() != 0 || r1.Terminal() {
			t.Errorf("%s: a reset reader has reward %d, terminal %v", g.Name, r1.Reward(), r1.Terminal())
		}
	}
}

// TestAllPerROMProperties pins the Stella properties of every supported ROM
// (docs/design/emulator.md, ROM properties): every game not listed has the defaults.
func TestAllPerROMProperties(t *testing.T) {
	want := map[string]Properties{
		"amidar":         {LeftDifficultyA: true, RightDifficultyA: true},
		"asteroids":      {NoHmoveBlanks: true},
		"battle_zone":    {NoHmoveBlanks: true},
		"darkchambers":   {NoHmoveBlanks: true},
		"ms_pacman":      {NoHmoveBlanks: true},
		"backgammon":     {LeftPaddles: true},
		"blackjack":      {LeftPaddles: true},
		"breakout":       {LeftPaddles: true},
		"casino":         {LeftPaddles: true},
		"kaboom":         {LeftPaddles: true},
		"pong":           {LeftPaddles: true, RightPaddles: true, SwapPaddles: true},
		"carnival":       {YStart: 26, Height: 214},
		"pooyan":         {YStart: 26, Height: 220},
		"journey_escape": {Height: 230},
		"qbert":          {YStart: 40},
		"up_n_down":      {YStart: 30},
		"surround":       {SwapPorts: true},
		"wizard_of_wor":  {SwapPorts: true},
	}
	for _, g := range Games() {
		if g.Props != want[g.Name] {
			t.Errorf("%s: properties %+v, want %+v", g.Name, g.Props, want[g.Name])
		}
	}
}

func TestIsLegal(t *testing.T) {
	skiing, _ := GameByName("skiing")
	luggage, _ := GameByName("lost_luggage")
	pong, _ := GameByName("pong")
	for a := range Action(NumActions) {
		fire := actionFire[a]
		if skiing.IsLegal(a) == fire || luggage.IsLegal(a) == fire {
			t.Errorf("%s: legal in skiing %v, lost_luggage %v; only non-FIRE actions are", a, skiing.IsLegal(a), luggage.IsLegal(a))
		}
		if !pong.IsLegal(a) {
			t.Errorf("%s illegal in pong", a)
		}
	}
	var names []string
	for name := range illegalActions {
		names = append(names, name)
	}
	sort.Strings(names)
	if !slices.Equal(names, []string{"lost_luggage", "skiing"}) {
		t.Errorf("games with illegal actions: %v", names)
	}
}
