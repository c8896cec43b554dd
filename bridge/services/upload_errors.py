"""An upload's refusal, shared by the pairs and the individual readers (bridge.services.uploads is the seam
both go through; this module sits below both so neither imports the other for it)."""

from django.utils.translation import gettext as _

from bridge.engine.csv_upload import Problem


class UploadError(Exception):
    """The upload is refused; `messages` say where and why (nothing was written)."""

    def __init__(self, messages):
        self.messages = [str(m) for m in messages]
        super().__init__("; ".join(self.messages))


def explain(problem: Problem) -> str:
    """A parser's refusal in the reader's language (nested reasons translated too)."""
    values = {k: explain(v) if isinstance(v, Problem) else v for k, v in problem.params.items()}
    return _(problem.template) % values
