package main

import (
	"errors"
	"flag"
	"fmt"
)

// parseFlags gives a subcommand's flag set its usage (the text, then the flags'
// defaults) and parses args. It reports false, with no error, when the user asked
// for -help: the usage is printed and the subcommand has nothing more to do.
func parseFlags(fs *flag.FlagSet, args []string, usage string) (bool, error) {
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}
