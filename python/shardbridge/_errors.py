"""shardbridge.Error: every input error of the package (a ValueError)."""

from __future__ import annotations

from typing import Optional


class Error(ValueError):
    """An input shardbridge cannot read, verify or convert.

    ``str(e)`` is the message; ``e.offset`` the byte offset into the text it is
    about (``None`` when it is about no particular byte), ``e.line`` and
    ``e.column`` the same place 1-based, ``e.diagnostic`` the message rendered
    MLIR-style with the source line and a caret, ``e.code`` one of 'parse',
    'invalid', 'unsupported', 'not_found', 'io', 'internal'. ``e.note`` is one
    more line of context when the error has one (``None`` otherwise), e.g. the
    parameter the sdy parser was reading under MLIR's ``expected ','``;
    ``e.note_line`` and ``e.note_column`` say where it points (``None`` when
    nowhere in particular).

    >>> import shardbridge as sb
    >>> try:
    ...     sb.HloSharding.parse('{devices=[2]0}')
    ... except sb.Error as e:
    ...     print(e.code, e.line, e.column)
    parse 1 2
    """

    def __init__(self, message: str, *, code: str = "invalid", offset: Optional[int] = None,
                 line: Optional[int] = None, column: Optional[int] = None,
                 diagnostic: Optional[str] = None, note: Optional[str] = None,
                 note_line: Optional[int] = None, note_column: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.offset = offset
        self.line = line
        self.column = column
        self.note = note if note else None
        self.note_line = note_line if self.note is not None else None
        self.note_column = note_column if self.note is not None else None
        if diagnostic is None:
            diagnostic = f"<input>: error: {message}\n"
            if self.note is not None:
                diagnostic += f"<input>: note: {self.note}\n"
        self.diagnostic = diagnostic

    def __reduce__(self):
        return (_rebuild, (self.message, self.code, self.offset, self.line, self.column, self.diagnostic,
                           self.note, self.note_line, self.note_column))


Error.__module__ = "shardbridge"


def _rebuild(message, code, offset, line, column, diagnostic, note=None, note_line=None,
             note_column=None):
    return Error(message, code=code, offset=offset, line=line, column=column, diagnostic=diagnostic,
                 note=note, note_line=note_line, note_column=note_column)
