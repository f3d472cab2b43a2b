"""Every file agreement-sql writes goes through this module (docs/decisions/0016).

Three rules, the same for the command line and the Python API:

1. **Never onto an input.** A call knows its inputs (:class:`Inputs`: the files, folders and
   glob patterns it reads). An output is refused with an :class:`OptionError` naming both when
   it is an input file (the same path, a hard link to it or a symbolic link to it: the same
   device and inode), lies inside an input folder, or matches an input glob, now or later (a
   file the glob would read on the next run).
2. **Never a partial file.** An output is written to a temporary file in the target's folder
   (``.NAME.<random>.tmp``: created exclusively, and a leading dot keeps it out of ``*``
   globs), and moved to its name only when complete. Two modes say what happens to a file
   already at that name:

   * ``"replace"`` (the CLI's ``--output``/``-o``, ``report -o``, ``sample --output``,
     ``--disagreements``; ``calibration_sample(output=)``, ``consistency(disagreements_tsv=)``):
     a file that was there when the call started is replaced in one step (``os.replace``),
     keeping its permission bits; a symbolic link there is followed (the file it names is
     replaced). A file that appeared while the call ran, or one that was changed or swapped
     for another (its inode, size, modification or change time differ), is not replaced:
     OptionError.
   * ``"new"`` (``judge_agreement(points_to=)``, ``--points-to``): a file already there is
     refused before anything runs, and the finished file is created with ``os.link`` of the
     temporary file, an atomic exclusive create (it fails if the name appeared meanwhile).

3. **A call deletes only what it created**: its temporary files, and, when one file of a set
   cannot be placed (:class:`OutputSet`: all or nothing), the files of the set it already
   placed, each only while it is still the file the call made (same inode).
"""
from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

from .errors import OptionError

GLOB_CHARS = "*?["
REPLACE, NEW = "replace", "new"
_MODES = (REPLACE, NEW)


def _identity(st: os.stat_result) -> tuple[int, int]:
    return (st.st_dev, st.st_ino)


def _version(st: os.stat_result) -> tuple[int, ...]:
    """A file's identity and its last change: an inode number freed and reused by another file,
    or the same file written meanwhile, differ in their change time (to the resolution of the
    file system's clock)."""
    return (st.st_dev, st.st_ino, st.st_ctime_ns, st.st_mtime_ns, st.st_size)


def _resolved(path: str) -> str:
    """``path`` absolute, with every symbolic link of its folders resolved, and its last
    component resolved too when it is a link."""
    return os.path.normcase(os.path.realpath(os.path.abspath(path)))


# -- glob patterns, matched as Python's glob.glob(recursive=True) reads them (sources.py) ------

def _split(path: str) -> list[str]:
    parts = []
    head = path
    while True:
        head, tail = os.path.split(head)
        if tail:
            parts.append(tail)
        else:
            if head:
                parts.append(head)
            break
    return parts[::-1]


def _component(part: str) -> str:
    """One path component of a glob as a regular expression: ``*`` and ``?`` never cross a
    separator, ``[...]`` is a class (``[!...]`` negated), anything else literal."""
    sep = re.escape(os.sep)
    out, i = [], 0
    while i < len(part):
        ch = part[i]
        if ch == "*":
            out.append(f"[^{sep}]*")
        elif ch == "?":
            out.append(f"[^{sep}]")
        elif ch == "[":
            j = i + 1
            if j < len(part) and part[j] == "!":
                j += 1
            if j < len(part) and part[j] == "]":
                j += 1
            while j < len(part) and part[j] != "]":
                j += 1
            if j >= len(part):
                out.append(re.escape(ch))        # no closing bracket: a literal '['
            else:
                inner = part[i + 1:j].replace("\\", "\\\\")
                if inner.startswith("!"):
                    inner = "^" + inner[1:]
                elif inner.startswith("^"):
                    inner = "\\" + inner
                out.append(f"[{inner}]")
                i = j
        else:
            out.append(re.escape(ch))
        i += 1
    body = "".join(out)
    return body if part.startswith(".") else r"(?!\.)" + body


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A regular expression for the absolute paths ``pattern`` (absolute) matches, as Python's
    ``glob.glob(pattern, recursive=True)`` reads it: wildcards within one path component (not
    a leading dot), ``**`` any number of components (at least one when it ends the pattern)."""
    sep = re.escape(os.sep)
    parts = _split(pattern)
    out = [re.escape(parts[0].rstrip(os.sep)) if parts else ""]
    for k, part in enumerate(parts[1:], start=1):
        if part == "**":
            # any depth in the middle (a/**/b matches a/b); last, a file under the folder
            # before it, at least one level down (a/** does not match the file a)
            out.append(f"(?:{sep}(?!\\.)[^{sep}]*)" + ("+" if k == len(parts) - 1 else "*"))
        else:
            out.append(sep + _component(part))
    return re.compile("".join(out) + r"\Z", re.DOTALL)


def _anchored(pattern: str) -> str:
    """The pattern made absolute, its literal leading folders resolved like a path."""
    parts = _split(os.path.abspath(pattern))
    literal = 0
    while literal < len(parts) and not any(ch in parts[literal] for ch in GLOB_CHARS):
        literal += 1
    base = _resolved(os.path.join(*parts[:literal])) if literal else os.sep
    return os.path.join(base, *parts[literal:]) if literal < len(parts) else base


# -- what a call reads ---------------------------------------------------------------------

@dataclass
class Inputs:
    """The files, folders and glob patterns a call reads, for :func:`refuse_input`."""

    files: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)  # id: (path, shown)
    folders: list[tuple[str, str]] = field(default_factory=list)       # (resolved, as given)
    patterns: list[tuple[re.Pattern[str], str]] = field(default_factory=list)

    @classmethod
    def of(cls, *sources: Any) -> "Inputs":
        """The inputs among ``sources``: every path or glob (str or PathLike); anything else
        (a table, a DataFrame, a table name that is no file) reads no file."""
        found = cls()
        for source in sources:
            found.add(source)
        return found

    def add(self, source: Any) -> None:
        if isinstance(source, (list, tuple)):
            for s in source:
                self.add(s)
            return
        if not isinstance(source, (str, os.PathLike)):
            return
        text = os.fspath(source)
        if not isinstance(text, str) or not text.strip():
            return
        if any(ch in text for ch in GLOB_CHARS):
            self.patterns.append((_glob_regex(_anchored(text)), text))
            import glob as _glob
            for path in _glob.glob(text, recursive=True):
                if os.path.isfile(path):        # a glob reads the files it matches (sources.py)
                    self._add_path(path, shown=f"{path!r} (matched by {text!r})")
            return
        self._add_path(text, shown=repr(text))

    def _add_path(self, path: str, *, shown: str) -> None:
        try:
            st = os.stat(path)
        except OSError:
            return                          # not a file: a table name, or nothing to protect
        if stat.S_ISDIR(st.st_mode):
            self.folders.append((_resolved(path), shown))
        else:
            self.files.setdefault(_identity(st), (path, shown))

    def __bool__(self) -> bool:
        return bool(self.files or self.folders or self.patterns)


def refuse_input(path: str, inputs: Inputs | None, what: str) -> None:
    """OptionError naming ``what`` (the output option) and the input when ``path`` would write
    onto an input of the call: the same file (also through a hard or symbolic link), a file in
    an input folder, or a path an input glob matches."""
    if not inputs:
        return
    given = os.fspath(path)
    try:
        st = os.stat(given)
    except OSError:
        st = None
    if st is not None and _identity(st) in inputs.files:
        source, shown = inputs.files[_identity(st)]
        same = (not os.path.islink(given) and os.path.normcase(os.path.abspath(given))
                == os.path.normcase(os.path.abspath(source)))
        how = "is" if same else "is a link to"
        raise OptionError(f"{what} {given!r} {how} the input {shown}: agreement-sql never "
                          "writes onto a file it reads; write the result elsewhere")
    candidates = {_resolved(given), os.path.normcase(os.path.abspath(given))}
    for folder, shown in inputs.folders:
        for c in candidates:
            if c == folder or c.startswith(folder.rstrip(os.sep) + os.sep):
                raise OptionError(f"{what} {given!r} lies in the input folder {shown}, which "
                                  "is read whole; write the result elsewhere")
    for regex, pattern in inputs.patterns:
        for c in candidates:
            if regex.match(c):
                raise OptionError(f"{what} {given!r} matches the input glob {pattern!r} (the "
                                  "next run would read it); write the result elsewhere")


def refuse_same_targets(targets: Iterable[tuple[str, str]]) -> None:
    """OptionError when two outputs of one call name the same file: ``targets`` lists
    (what, path)."""
    seen: dict[str, str] = {}
    for what, path in targets:
        key = _resolved(os.fspath(path))
        if key in seen:
            raise OptionError(f"{what} {os.fspath(path)!r} is also the file of {seen[key]}; "
                              "give each output its own file")
        seen[key] = what


# -- one file -----------------------------------------------------------------------------

class Output:
    """One file a call writes: checked now (not an input, its folder exists, in mode "new"
    not there yet), written to :attr:`temp`, placed by :meth:`commit`."""

    def __init__(self, path: Any, what: str, *, inputs: Inputs | None = None,
                 mode: str = REPLACE) -> None:
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {_MODES}, got {mode!r}")
        if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
            raise OptionError(f"{what} must be a file path, got {path!r}")
        given = os.fspath(path)
        if not isinstance(given, str) or not given.strip():
            raise OptionError(f"{what} must be a file path, got {path!r}")
        self.path = given                  # as the caller gave it (messages, results)
        self.what = what
        self.mode = mode
        refuse_input(given, inputs, what)
        # a link at the name is followed: the file it names is the one replaced
        self.final = os.path.realpath(given) if os.path.islink(given) else given
        folder = os.path.dirname(os.path.abspath(self.final))
        if not os.path.isdir(folder):
            raise OptionError(f"{what}: the folder {folder!r} does not exist")
        self.folder = folder
        self.found = self._present()
        if self.found is not None:
            if stat.S_ISDIR(self.found.st_mode):
                raise OptionError(f"{what} {given!r} is a folder; give a file path")
            if mode == NEW:
                raise OptionError(f"{what}: {given!r} exists; agreement-sql does not overwrite "
                                  "it (remove it or name another place)")
        self.temp: str | None = None
        self.placed: tuple[int, ...] | None = None

    def _present(self) -> os.stat_result | None:
        try:
            return os.stat(self.final)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise OptionError(f"{self.what} {self.path!r}: {exc.strerror}") from None

    def open_temp(self) -> str:
        """Create the temporary file (exclusively, in the target's folder) and return its path."""
        base = os.path.basename(self.final)
        for _ in range(100):
            name = os.path.join(self.folder, f".{base}.{secrets.token_hex(6)}.tmp")
            try:
                fd = os.open(name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
            except FileExistsError:
                continue
            except OSError as exc:
                raise OptionError(f"{self.what}: cannot write in {self.folder!r}: "
                                  f"{exc.strerror}") from None
            os.close(fd)
            self.temp = name
            return name
        raise OptionError(f"{self.what}: cannot create a temporary file in {self.folder!r}")

    def commit(self) -> None:
        """Move the finished temporary file to its name, by the mode's rule."""
        assert self.temp is not None, "commit() before open_temp()"
        now = self._present()
        if self.mode == REPLACE and self.found is not None and now is not None:
            if _version(now) != _version(self.found):
                raise OptionError(f"{self.what}: {self.path!r} was replaced or changed while "
                                  "agreement-sql ran; not overwritten")
            try:
                os.chmod(self.temp, stat.S_IMODE(self.found.st_mode))
            except OSError:
                pass
            os.replace(self.temp, self.final)
        else:
            if now is not None:
                raise OptionError(f"{self.what}: {self.path!r} appeared while agreement-sql "
                                  "ran; not overwritten")
            _create_from(self.temp, self.final, self.what, self.path)
        self.temp = None
        self.placed = _version(os.stat(self.final))

    def discard(self) -> None:
        """Remove the temporary file, if any (the call failed)."""
        if self.temp is not None:
            _remove(self.temp)
            self.temp = None

    def undo(self) -> None:
        """Remove the placed file while it is still the one this call made (all or nothing)."""
        if self.placed is None:
            return
        try:
            if _version(os.stat(self.final)) == self.placed:
                os.remove(self.final)
        except OSError:
            pass
        self.placed = None


def _create_from(temp: str, final: str, what: str, shown: str) -> None:
    """``temp`` under the name ``final``, which must not exist: ``os.link`` (atomic, exclusive),
    then the temporary name removed. Where the file system has no hard links, an empty file is
    created exclusively at ``final`` (so no other writer takes the name) and replaced."""
    try:
        os.link(temp, final)
    except FileExistsError:
        raise OptionError(f"{what}: {shown!r} appeared while agreement-sql ran; not "
                          "overwritten") from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS,
                             errno.EMLINK, errno.EXDEV):
            raise
        try:
            fd = os.open(final, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
        except FileExistsError:
            raise OptionError(f"{what}: {shown!r} appeared while agreement-sql ran; not "
                              "overwritten") from None
        os.close(fd)
        os.replace(temp, final)
        return
    _remove(temp)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


class OutputSet:
    """Files of one call placed all or nothing: :meth:`commit` places each in order and, when
    one cannot be placed, removes those it already placed (still the call's own); any error
    in the ``with`` block discards every temporary file."""

    def __init__(self, outputs: Sequence[Output]) -> None:
        refuse_same_targets((o.what, o.final) for o in outputs)
        self.outputs = list(outputs)

    def __iter__(self) -> Iterator[Output]:
        return iter(self.outputs)

    def commit(self) -> None:
        try:
            for output in self.outputs:
                output.commit()
        except BaseException:
            for output in self.outputs:
                output.undo()
            self.discard()
            raise

    def discard(self) -> None:
        for output in self.outputs:
            output.discard()

    def __enter__(self) -> "OutputSet":
        return self

    def __exit__(self, kind: Any, *_: Any) -> None:
        if kind is not None:
            self.discard()


def write_text(path: Any, text: str, what: str, *, inputs: Inputs | None = None,
               mode: str = REPLACE, output: Output | None = None) -> str:
    """Write ``text`` (UTF-8) to ``path`` by the rules above; return the path as given.
    ``output``: the :class:`Output` already checked for ``path`` (else it is checked now)."""
    out = output or Output(path, what, inputs=inputs, mode=mode)
    with OutputSet([out]):
        temp = out.open_temp()
        with open(temp, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        out.commit()
    return out.path


def new_files(directory: Any, names: Sequence[str], what: str, *,
              inputs: Inputs | None = None) -> OutputSet:
    """The files ``names`` in ``directory`` (created when absent), in mode "new": refused now
    when one exists, placed together by :meth:`OutputSet.commit`."""
    if isinstance(directory, bool) or not isinstance(directory, (str, os.PathLike)):
        raise OptionError(f"{what} must be a directory path, got {directory!r}")
    path = os.fspath(directory)
    if not isinstance(path, str) or not path.strip():
        raise OptionError(f"{what} must be a directory path, got {directory!r}")
    if os.path.exists(path) and not os.path.isdir(path):
        raise OptionError(f"{what} {path!r} exists and is not a directory")
    refuse_input(path, inputs, what)
    for name in names:                 # check every file before the folder is made
        refuse_input(os.path.join(path, name), inputs, what)
        if os.path.lexists(os.path.join(path, name)):
            raise OptionError(f"{what}: {os.path.join(path, name)!r} exists; agreement-sql does "
                              "not overwrite it (remove it or name another directory)")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise OptionError(f"{what}: cannot create the directory {path!r}: {exc.strerror}") from None
    return OutputSet([Output(os.path.join(path, name), what, inputs=inputs, mode=NEW)
                      for name in names])
