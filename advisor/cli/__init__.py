"""The ``advisor`` command line: a thin layer over the library.

One module per command group; each exposes ``register(app)``. Modules keep heavy imports inside
command bodies so ``advisor --help`` stays instant.

It sits on top and may import every stage; nothing imports it.
"""

from __future__ import annotations

import importlib

import typer

from .. import __version__

app = typer.Typer(
    name="advisor",
    help="Choose, compute and justify classification metrics.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

def _version(value: bool) -> None:
    if value:
        typer.echo(f"advisor {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print advisor's version and exit."),
) -> None:
    """Choose, compute and justify classification metrics."""


# command-group modules, in the order their commands appear in --help
_GROUPS = ("compute", "catalogue", "advise", "compare", "report")

for _name in _GROUPS:
    try:
        _mod = importlib.import_module(f"{__name__}._{_name}")
    except ModuleNotFoundError as exc:  # a group not written yet
        if exc.name != f"{__name__}._{_name}":
            raise
        continue
    _mod.register(app)


def main() -> None:
    """Console-script entry point."""
    from ._common import tolerant_output

    tolerant_output()  # any output encoding: PYTHONIOENCODING=ascii must not end in UnicodeEncodeError
    app()
