"""A stand-in for torch.utils.tensorboard, whose SummaryWriter needs the tensorboard
package (which Debian does not package). It writes each scalar as a line
"tag<TAB>step<TAB>value" to log_dir/scalars.tsv and each text to log_dir/text.tsv,
so that a run's curves can still be read afterwards."""

import os
import time


class SummaryWriter:
    """The part of torch's SummaryWriter that training scripts call: add_scalar,
    add_text, flush and close. Other methods are absent: a script that needs them
    fails at the call, naming it."""

    def __init__(self, log_dir=None, comment="", **_kwargs):
        self.log_dir = log_dir or os.path.join("runs", time.strftime("%b%d_%H-%M-%S") + comment)
        os.makedirs(self.log_dir, exist_ok=True)
        self._scalars = open(os.path.join(self.log_dir, "scalars.tsv"), "a")
        self._text = open(os.path.join(self.log_dir, "text.tsv"), "a")

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, **_kwargs):
        """Record one value of the curve tag at global_step."""
        self._scalars.write("%s\t%s\t%r\n" % (tag, global_step, float(scalar_value)))

    def add_text(self, tag, text_string, global_step=None, walltime=None):
        """Record a text (newlines escaped) under tag."""
        self._text.write("%s\t%s\t%s\n" % (tag, global_step, text_string.replace("\n", "\\n")))

    def flush(self):
        """Write out what is buffered."""
        self._scalars.flush()
        self._text.flush()

    def close(self):
        """Flush and close the files."""
        self._scalars.close()
        self._text.close()


__all__ = ["SummaryWriter"]
