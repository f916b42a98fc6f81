package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/rlpool/rlpool/envs/atari"
)

// romsUsage is the help of `train roms`.
const romsUsage = `usage:
  train roms import DIR [-to ROMDIR]   find ALE's ROMs under DIR (folders and zip files) by md5
                                       and copy them into ROMDIR as <game>.bin
  train roms list [-dir ROMDIR]        show which games' ROMs ROMDIR holds

ROMDIR defaults to $RLPOOL_ROMS, else ./roms (the folder the Atari tasks read unless
their roms_dir option says otherwise).`

// runRoms implements `train roms`: importing ALE's ROMs into the ROM folder and
// listing which games are available.
func runRoms(args []string) error {
	return romsMain(args, os.Stdout)
}

func romsMain(args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New("missing subcommand\n" + romsUsage)
	}
	switch args[0] {
	case "import":
		return romsImport(args[1:], out)
	case "list":
		return romsList(args[1:], out)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(out, romsUsage)
		return nil
	}
	return fmt.Errorf("unknown subcommand %q\n%s", args[0], romsUsage)
}

// romsImport is `train roms import DIR [-to ROMDIR]`. The flag may come before or
// after DIR.
func romsImport(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("roms import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	to := fs.String("to", "", "ROM folder to copy into (default $RLPOOL_ROMS, else ./roms)")
	var src string
	for {
		if err := fs.Parse(args); err != nil {
			return fmt.Errorf("%v\n%s", err, romsUsage)
		}
		if fs.NArg() == 0 {
			break
		}
		if src != "" {
			return fmt.Errorf("one source folder, got %q and %q\n%s", src, fs.Arg(0), romsUsage)
		}
		src, args = fs.Arg(0), fs.Args()[1:]
	}
	if src == "" {
		return errors.New("missing the folder to import from\n" + romsUsage)
	}
	dst := atari.ROMDir(*to)
	results, err := atari.ImportROMs(src, dst)
	if err != nil && results == nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STATUS\tGAME\tMD5\tSOURCE\tDESTINATION")
	counts := map[atari.ImportStatus]int{}
	for _, r := range results {
		counts[r.Status]++
		game, dest := r.Game, r.Dest
		if game == "" {
			game = "-"
		}
		if r.Status == atari.Skipped {
			dest = r.Detail
		}
		sum := r.MD5
		if sum == "" {
			sum = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Status, game, sum, r.Source, dest)
	}
	tw.Flush()
	available := 0
	for _, s := range atari.ROMStatus(dst) {
		if s.Path != "" {
			available++
		}
	}
	fmt.Fprintf(out, "\n%d imported, %d already present, %d unknown, %d skipped; %s now holds %d of the %d supported games\n",
		counts[atari.Imported], counts[atari.AlreadyPresent], counts[atari.Unknown], counts[atari.Skipped],
		dst, available, len(atari.GameNames()))
	if counts[atari.Unknown] > 0 {
		fmt.Fprintln(out, "unknown files are not ROM releases ALE supports (or are corrupt copies); they were not copied and are never run")
	}
	return err
}

// romsList is `train roms list [-dir ROMDIR]`.
func romsList(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("roms list", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", "", "ROM folder (default $RLPOOL_ROMS, else ./roms)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%v\n%s", err, romsUsage)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q\n%s", fs.Arg(0), romsUsage)
	}
	d := atari.ROMDir(*dir)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tGAME\tMD5\tROM")
	n, total := 0, 0
	for _, s := range atari.ROMStatus(d) {
		total++
		where := "missing"
		if s.Path != "" {
			where = s.Path
			n++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.TaskID, s.Game.Name, s.Game.MD5, where)
	}
	tw.Flush()
	fmt.Fprintf(out, "\n%d of %d games available in %s", n, total, d)
	if n < total {
		fmt.Fprintf(out, "; add more with: train roms import DIR -to %s", d)
	}
	fmt.Fprintln(out)
	return nil
}
