package atari

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"

	"github.com/rlpool/rlpool/envs/atari/vcs"
)

// Game is one ALE-supported game: the ROM it accepts (by md5), the console properties
// Stella's property table gives that ROM, and the RL facts of ALE's RomSettings for it.
// The table of games is data (one entry per game in a game_<name>.go file, listed in
// supportedGames), so adding one of ALE's other games is adding one entry and its
// reader.
type Game struct {
	// Name is ALE's ROM name ("pong", "ms_pacman"), also the ROM's usual file name
	// without ".bin".
	Name string
	// MD5 is the lowercase hex md5 of the one ROM image ALE supports for the game.
	MD5 string
	// Props are the non-default console properties of the ROM.
	Props Properties
	// Modes are the game modes ALE offers; the first is the default. Nil means {0}.
	Modes []int
	// Difficulties are the difficulty settings ALE offers (bit 0: left switch A,
	// bit 1: right switch A). Nil means {0}.
	Difficulties []int
	// MinimalActions is ALE's minimal action set, in ALE's order (ascending id).
	MinimalActions []Action
	// StartingActions are emulated once each at the end of every reset (Pitfall II
	// presses UP); they are not episode frames.
	StartingActions []Action
	// NewReader makes a fresh reader of the game's RAM.
	NewReader func() Reader

	// setMode is the game's mode-selection step of ALE's reset (RomSettings::setMode):
	// nil for games that only have mode 0 and emulate nothing there.
	setMode func(a *ALE, mode int) error
}

// Properties are the Stella properties of a ROM that change emulation
// (docs/design/emulator.md, ROM properties). The zero value is Stella's default: scheme
// auto-detected, screen from line 34 and 210 lines high, HMOVE blanks on, joysticks, no
// swaps, both difficulty switches B.
type Properties struct {
	// Scheme forces a cartridge bank-switching scheme; empty means auto-detect
	// (no ALE game overrides it).
	Scheme string
	// YStart and Height place ALE's screen window; 0 means the default (34, 210).
	// The console makes a default height 250 when it detects a PAL ROM.
	YStart, Height int
	// NoHmoveBlanks turns off the black HMOVE bars (Asteroids, Ms. Pac-Man, ...).
	NoHmoveBlanks bool
	// LeftPaddles and RightPaddles say which ports hold paddles instead of joysticks;
	// ALE drives the game with paddle events if either is set.
	LeftPaddles, RightPaddles bool
	// SwapPaddles exchanges paddles 0 and 1 on a port (Pong); SwapPorts exchanges the
	// two controller ports (Surround, Wizard of Wor).
	SwapPaddles, SwapPorts bool
	// LeftDifficultyA and RightDifficultyA set the switches' initial positions (they
	// matter only until ALE first sets them, during the display-detection frames).
	LeftDifficultyA, RightDifficultyA bool
}

// Default screen window of ALE (Stella's YStart and Height defaults).
const (
	DefaultYStart = 34
	DefaultHeight = 210
	ScreenWidth   = 160
)

// usesPaddles reports whether ALE drives the game with paddle events.
func (p Properties) usesPaddles() bool { return p.LeftPaddles || p.RightPaddles }

// height is the screen height with the default filled in.
func (p Properties) height() int {
	if p.Height == 0 {
		return DefaultHeight
	}
	return p.Height
}

// consoleConfig is the console configuration for a ROM with these properties.
func (p Properties) consoleConfig() vcs.Config {
	cfg := vcs.DefaultConfig()
	if p.Scheme != "" {
		cfg.Scheme = p.Scheme
	}
	if p.YStart != 0 {
		cfg.YStart = p.YStart
	}
	if p.Height != 0 {
		cfg.Height = p.Height
	}
	cfg.HmoveBlanks = !p.NoHmoveBlanks
	cfg.Paddles = p.LeftPaddles
	cfg.RightPaddles = p.RightPaddles
	cfg.SwapPaddles = p.SwapPaddles
	cfg.SwapPorts = p.SwapPorts
	cfg.LeftDifficultyA = p.LeftDifficultyA
	cfg.RightDifficultyA = p.RightDifficultyA
	return cfg
}

// DefaultMode is the game's default mode: the first of its modes, as in ALE.
func (g Game) DefaultMode() int {
	if len(g.Modes) == 0 {
		return 0
	}
	return g.Modes[0]
}

// HasMode reports whether m is one of the game's modes.
func (g Game) HasMode(m int) bool {
	if len(g.Modes) == 0 {
		return m == 0
	}
	return slices.Contains(g.Modes, m)
}

// HasDifficulty reports whether d is one of the game's difficulties.
func (g Game) HasDifficulty(d int) bool {
	if len(g.Difficulties) == 0 {
		return d == 0
	}
	return slices.Contains(g.Difficulties, d)
}

// clone returns a copy whose slices the caller may modify without touching the table.
func (g *Game) clone() Game {
	c := *g
	c.Modes = slices.Clone(g.Modes)
	c.Difficulties = slices.Clone(g.Difficulties)
	c.MinimalActions = slices.Clone(g.MinimalActions)
	c.StartingActions = slices.Clone(g.StartingActions)
	return c
}

// supportedGames is the table of games rlpool runs, one entry per game: all 104 games
// of ALE's ROM table (the single-player games EnvPool registers), sorted by name.
var supportedGames = []*Game{
	&adventureGame,
	&airRaidGame,
	&alienGame,
	&amidarGame,
	&assaultGame,
	&asterixGame,
	&asteroidsGame,
	&atlantisGame,
	&atlantis2Game,
	&backgammonGame,
	&bankHeistGame,
	&basicMathGame,
	&battleZoneGame,
	&beamRiderGame,
	&berzerkGame,
	&blackjackGame,
	&bowlingGame,
	&boxingGame,
	&breakoutGame,
	&carnivalGame,
	&casinoGame,
	&centipedeGame,
	&chopperCommandGame,
	&crazyClimberGame,
	&crossbowGame,
	&darkchambersGame,
	&defenderGame,
	&demonAttackGame,
	&donkeyKongGame,
	&doubleDunkGame,
	&earthworldGame,
	&elevatorActionGame,
	&enduroGame,
	&entombedGame,
	&etGame,
	&fishingDerbyGame,
	&flagCaptureGame,
	&freewayGame,
	&froggerGame,
	&frostbiteGame,
	&galaxianGame,
	&gopherGame,
	&gravitarGame,
	&hangmanGame,
	&hauntedHouseGame,
	&heroGame,
	&humanCannonballGame,
	&iceHockeyGame,
	&jamesbondGame,
	&journeyEscapeGame,
	&kaboomGame,
	&kangarooGame,
	&keystoneKapersGame,
	&kingKongGame,
	&klaxGame,
	&koolaidGame,
	&krullGame,
	&kungFuMasterGame,
	&laserGatesGame,
	&lostLuggageGame,
	&marioBrosGame,
	&miniatureGolfGame,
	&montezumaRevengeGame,
	&mrDoGame,
	&msPacmanGame,
	&nameThisGameGame,
	&othelloGame,
	&pacmanGame,
	&phoenixGame,
	&pitfallGame,
	&pitfall2Game,
	&pongGame,
	&pooyanGame,
	&privateEyeGame,
	&qbertGame,
	&riverraidGame,
	&roadRunnerGame,
	&robotankGame,
	&seaquestGame,
	&sirLancelotGame,
	&skiingGame,
	&solarisGame,
	&spaceInvadersGame,
	&spaceWarGame,
	&starGunnerGame,
	&supermanGame,
	&surroundGame,
	&tennisGame,
	&tetrisGame,
	&ticTacToe3dGame,
	&timePilotGame,
	&trondeadGame,
	&turmoilGame,
	&tutankhamGame,
	&upNDownGame,
	&ventureGame,
	&videoCheckersGame,
	&videoChessGame,
	&videoCubeGame,
	&videoPinballGame,
	&wizardOfWorGame,
	&wordZapperGame,
	&yarsRevengeGame,
	&zaxxonGame,
}

// The table's indexes, built once at start.
var (
	gamesByMD5  = map[string]*Game{}
	gamesByName = map[string]*Game{}
)

func init() {
	for _, g := range supportedGames {
		if gamesByMD5[g.MD5] != nil || gamesByName[g.Name] != nil {
			panic("atari: game " + g.Name + " listed twice")
		}
		gamesByMD5[g.MD5] = g
		gamesByName[g.Name] = g
	}
}

// MD5 returns the lowercase hex md5 of a ROM image, the key games are identified by.
func MD5(rom []byte) string {
	sum := md5.Sum(rom)
	return hex.EncodeToString(sum[:])
}

// Identify returns the game whose ROM this image is, by its md5. A ROM whose md5 is not
// in the table is unknown: ALE's RAM readers would give meaningless rewards for it, so
// rlpool never runs it.
func Identify(rom []byte) (Game, bool) {
	return GameByMD5(MD5(rom))
}

// GameByMD5 returns the game whose ROM has this md5 (lowercase hex).
func GameByMD5(sum string) (Game, bool) {
	g, ok := gamesByMD5[sum]
	if !ok {
		return Game{}, false
	}
	return g.clone(), true
}

// GameByName returns the game with ALE's ROM name name ("pong", "ms_pacman").
func GameByName(name string) (Game, bool) {
	g, ok := gamesByName[name]
	if !ok {
		return Game{}, false
	}
	return g.clone(), true
}

// GameNames returns the names of all supported games, sorted.
func GameNames() []string {
	names := make([]string, 0, len(supportedGames))
	for _, g := range supportedGames {
		names = append(names, g.Name)
	}
	sort.Strings(names)
	return names
}

// Games returns every supported game, sorted by name.
func Games() []Game {
	out := make([]Game, 0, len(supportedGames))
	for _, name := range GameNames() {
		out = append(out, gamesByName[name].clone())
	}
	return out
}

// maxSelectPresses bounds a mode-selection loop. ALE loops until the mode byte
// matches; an emulator that never gets there would hang, so rlpool gives up with an
// error instead (no ALE game needs more than a few dozen presses).
const maxSelectPresses = 512

// selectUntil presses SELECT (holding it `frames` frames each time) until done
// reports true, then soft-resets: the pattern of nearly every ALE setMode.
func selectUntil(a *ALE, frames int, done func() bool, what string) error {
	for n := 0; !done(); n++ {
		if n == maxSelectPresses {
			return fmt.Errorf("atari: %s: mode selection did not reach %s after %d SELECT presses; the emulator does not respond to SELECT as ALE's does", a.game.Name, what, n)
		}
		if err := a.pressSelect(frames); err != nil {
			return err
		}
	}
	return a.softReset()
}

// selectRAMMode is the setMode of games whose current mode is one RAM byte: press
// SELECT `frames` frames at a time until RAM[offset] equals the mode.
func selectRAMMode(offset, frames int) func(a *ALE, mode int) error {
	return func(a *ALE, mode int) error {
		return selectUntil(a, frames, func() bool { return readRAM(a.m.RAM(), offset) == mode },
			fmt.Sprintf("mode %d (RAM $%02X)", mode, 0x80|offset&0x7f))
	}
}

// intRange returns {start, start+step, ...} with n values (ALE's getAvailableModes
// loops).
func intRange(n, start, step int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = start + i*step
	}
	return out
}
