"""Sphinx extension of the connectn-env site: the glue between Sphinx and :mod:`sitegen` /
:mod:`publicapi`.

- ``builder-inited``: writes the environment pages (one per PettingZoo module of the game
  registry), the API pages (one per public module, from its ``__all__``) and the benchmark
  figures (``benchmarks/README.md``) as a page; so a newly registered game or a newly
  exported name gets its page with no edit of the docs.
- ``source-read``: the Markdown pages' links to ``benchmarks/README.md``, which lies outside
  the site, point at its generated page (the pages read as files in the repository too).
- References: a Python reference is looked up as Python would, in the namespaces of the
  page's module and class and of the module that defines the documented object (a
  docstring of ``connectn_env.games.game`` documented as ``connectn_env.BoardGame`` names
  what that module imports), and pointed at the documented name of what it finds. A name
  outside the packages (numpy, Gymnasium, ``collections.abc``) is shown as plain text (no
  inventories are fetched: the build needs no network), as is an existing but internal name
  of the packages (a private helper, an internal module). A name that does not exist stays a
  warning, which ``-W`` turns into an error: a stale or misspelt reference fails the build.
- ``autodoc-process-signature``: a dataclass field's ``default_factory`` shows as ``...``
  (Sphinx cannot parse ``<factory>``; it would split ``dict[str, Any]`` and link ``dict[str``).
- ``autodoc-process-docstring``: property and attribute docstrings are prose in this codebase
  (types come from annotations), so their first line's colons are hidden from Napoleon, which
  would read ``"The position (read-only: ...)"`` as a type and a description; a datum's
  docstring that is only its type's (``dict``'s) is dropped, as is NamedTuple's "Alias for
  field number N". An overriding method without a docstring is not shown the docstring of
  another library's method it overrides (torch's ``Module.forward``).
- References to a name listed in a class's ``Attributes:`` section but not an attribute of
  the class (set in ``__init__``) link to the class.
"""

from __future__ import annotations

import inspect
import re
import sys
import typing
from pathlib import Path
from typing import Any

import publicapi
import sitegen
from docutils import nodes
from sphinx.addnodes import desc, desc_signature, pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
IDENTIFIER_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
COLON_STANDIN = "\ue000"  # a private-use character: never in a docstring
ROLE_OR_LITERAL = re.compile(r"(:[\w:+-]+:`[^`]*`|``[^`]*``|`[^`]*`)")
FIELD_ALIAS = re.compile(r"^Alias for field number \d+$")
FUNCTION_REPR = re.compile(r"<(?:built-in )?function (?P<name>[\w.]+)(?: at 0x[0-9a-f]+)?>")
OBJECT_REPR = re.compile(r"<[A-Za-z][^<>]*>")
_APIS: dict[int, publicapi.PublicApi] = {}


def public_api(app: Sphinx) -> publicapi.PublicApi:
    """The :class:`publicapi.PublicApi` of this build (made once per process)."""
    if id(app) not in _APIS:
        _APIS[id(app)] = publicapi.PublicApi()
    return _APIS[id(app)]


BENCHMARKS = "benchmarks"  # the folder of the generated page of benchmarks/README.md


def generate_pages(app: Sphinx) -> None:
    """Write the environment pages, the API pages and the benchmark figures' page into the
    source folder."""
    import connectn_env

    source = Path(app.srcdir)
    api = public_api(app)
    envs = sitegen.env_pages(
        connectn_env.ENV_MODULES, connectn_env.REGISTRY, qualify=api.qualify_roles
    )
    figures = {
        "index.md": sitegen.copied_page(
            source.parent / "benchmarks" / "README.md", source / BENCHMARKS, source.parent
        )
    }
    modules = {f"{name}.rst": api.page(name) for name in api.modules}
    for folder, pages in (("environments", envs), ("api", modules), (BENCHMARKS, figures)):
        written = sitegen.write_pages(source / folder, pages)
        LOGGER.info(
            "connectn: %s/: %d pages generated, %d changed", folder, len(pages), len(written)
        )


def link_copied_pages(app: Sphinx, docname: str, source: list[str]) -> None:
    """A Markdown page's links to ``benchmarks/README.md`` go to its generated page."""
    path = Path(app.env.doc2path(docname))
    if path.suffix == ".md":
        srcdir = Path(app.srcdir)
        copies = {srcdir.parent / "benchmarks" / "README.md": srcdir / BENCHMARKS / "index.md"}
        source[0] = sitegen.rewrite_links(source[0], path.parent, path.parent, copies)


def scopes(node: pending_xref) -> list[str]:
    """Where a reference's name is looked up, as Python would: the page's class and module,
    then the class and module that define each documented object it sits in (innermost
    first: a method's docstring sees its own module's imports)."""
    module_name, class_name = node.get("py:module"), node.get("py:class")
    found = [f"{module_name}.{class_name}" if module_name and class_name else None, module_name]
    parent = node.parent
    while parent is not None:
        if isinstance(parent, desc) and parent.get("domain") == "py":
            signature = next(iter(parent.findall(desc_signature)), None)
            if signature is not None and signature.get("module"):
                value = sys.modules.get(signature["module"])
                for part in signature.get("fullname", "").split("."):
                    value = getattr(value, part, None)
                    if inspect.isclass(value):
                        found.append(f"{value.__module__}.{value.__qualname__}")
                found.append(getattr(value, "__module__", None))
        parent = parent.parent
    return list(dict.fromkeys(filter(None, found)))


def resolve_reference(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    """A Python reference the domain could not resolve: the object's documented name, plain
    text for another library's or an internal object, None (a warning) if the name does not
    exist."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~").removesuffix("()")
    if not IDENTIFIER_PATH.match(target):
        return None
    api = public_api(app)
    domain = env.domains["py"]
    candidates = [*(f"{scope}.{target}" for scope in scopes(node)), target]
    for located in [*map(api.locate, candidates), api.locate_anywhere(target)]:
        if located is None:
            continue
        if located.home:
            resolved = domain.resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"], located.home, node, contnode
            )
            if resolved is not None:
                return resolved
        return contnode
    return None


class NamespaceReferences(SphinxPostTransform):
    """Before Sphinx resolves references: a Python reference that names no documented object
    as written is looked up as Python would (:func:`scopes`) and pointed at the documented
    name of what is there. So ``Status`` in a signature of a module that imports
    ``contract.Status`` links there, though ``play.thinking.Status`` exists too (Sphinx
    alone would find both and warn)."""

    default_priority = 5  # Sphinx's ReferencesResolver runs at 10

    def run(self, **kwargs: Any) -> None:
        api = public_api(self.app)
        objects = self.env.domains["py"].objects
        for node in self.document.findall(pending_xref):
            if node.get("refdomain") != "py" or node.get("reftype") == "mod":
                continue
            target = node["reftarget"].lstrip(".~").removesuffix("()")
            if not IDENTIFIER_PATH.match(target) or target in objects:
                continue
            module_name, class_name = node.get("py:module"), node.get("py:class")
            if f"{module_name}.{class_name}.{target}" in objects or (
                f"{module_name}.{target}" in objects
            ):
                continue  # Sphinx finds it in the page's own scopes
            for scope in scopes(node):
                located = api.locate(f"{scope}.{target}")
                if located is not None and located.home in objects:
                    node["reftarget"] = located.home
                    node.attributes.pop("refspecific", None)
                    break


def parsable_signature(
    app: Sphinx,
    what: str,
    name: str,
    obj: Any,
    options: Any,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None] | None:
    """Defaults whose repr is not Python (``<factory>``, ``<built-in function
    perf_counter>``, ``<object object at 0x...>``) made parsable: the function's name, else
    ``...``."""
    if not signature or "<" not in signature:
        return None
    signature = FUNCTION_REPR.sub(r"\g<name>", signature)
    return OBJECT_REPR.sub("...", signature), return_annotation


def drop_foreign_docstrings(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """A method without a docstring of its own shows the one it overrides; drop it when that
    one comes from another library (``torch.nn.Module.forward``'s, whose references are
    torch's)."""
    if what not in {"method", "property", "attribute"} or not lines:
        return
    function = getattr(obj, "fget", obj)
    if getattr(function, "__doc__", "") is not None:
        return
    class_path, _, attribute = name.rpartition(".")
    module_name, _, class_name = class_path.rpartition(".")
    cls = getattr(sys.modules.get(module_name), class_name, None)
    for base in getattr(cls, "__mro__", ())[1:]:
        own = vars(base).get(attribute)
        if own is not None and getattr(getattr(own, "fget", own), "__doc__", None):
            if not publicapi.is_ours(base.__module__):
                lines.clear()
            return


def hide_colons(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """Before Napoleon: drop a datum's docstring that is only its type's (or, for a type
    alias, its origin's); hide the colons of a property's or attribute's first line."""
    if what in {"attribute", "data"} and obj is not None and not inspect.isclass(obj):
        text = "\n".join(lines).strip()
        for kind in (type(obj), typing.get_origin(obj)):  # tuple's for tuple[int, int]
            kind_doc = inspect.getdoc(kind) if kind is not None else None
            if kind_doc and text == kind_doc.strip():
                lines.clear()
                break
    if what in {"property", "attribute", "data"} and lines:
        parts = ROLE_OR_LITERAL.split(lines[0])
        lines[0] = "".join(
            part if k % 2 else part.replace(":", COLON_STANDIN) for k, part in enumerate(parts)
        )


def restore_colons(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """After Napoleon: put the hidden colons back; drop "Alias for field number N"."""
    for k, line in enumerate(lines):
        lines[k] = line.replace(COLON_STANDIN, ":")
    if len(lines) == 1 and FIELD_ALIAS.match(lines[0]):
        lines.clear()


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the handlers (Napoleon's docstring handler runs at the default priority,
    500, between :func:`hide_colons` and :func:`restore_colons`)."""
    app.connect("builder-inited", generate_pages, priority=400)
    app.connect("source-read", link_copied_pages)
    app.connect("autodoc-process-signature", parsable_signature)
    app.connect("autodoc-process-docstring", drop_foreign_docstrings, priority=400)
    app.connect("autodoc-process-docstring", hide_colons, priority=400)
    app.connect("autodoc-process-docstring", restore_colons, priority=600)
    app.add_post_transform(NamespaceReferences)
    app.connect("missing-reference", resolve_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
