"""A PDF twin of a Markdown book, typeset the way a LaTeX book is: an outline (bookmarks) by
heading level, running headers as LaTeX's book class sets them (the page number at the outer
edge, the book's title on even pages and the current chapter's on odd ones), justified
paragraphs, bulleted lists and tables; ``columns=2`` sets the text in two columns. Written
with reportlab's platypus.

    write_pdf(markdown_path, out_path, title, columns=1)
"""

from __future__ import annotations

import re
from pathlib import Path

from markdown_it import MarkdownIt
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import BaseDocTemplate, Frame, ListFlowable, PageTemplate, Paragraph, Spacer, Table

from crossbook.chunk.markdown_repair import repair_headings

_TAGS = re.compile(r"</?(?!b>|i>|/b>|/i>)[a-z][^>]*>")


def _inline(html: str) -> str:
    html = html.replace("<strong>", "<b>").replace("</strong>", "</b>").replace("<em>", "<i>").replace("</em>", "</i>")
    return _TAGS.sub("", html).replace("\n", " ")


def _para(html: str, style) -> Paragraph:
    """A paragraph of ``html`` (<b>, <i>); its plain text where the book's markup is unbalanced."""
    try:
        return Paragraph(html or "&nbsp;", style)
    except ValueError:
        plain = re.sub(r"<[^>]*>", "", html).replace("&", "&amp;").replace("<", "&lt;")
        return Paragraph(plain or "&nbsp;", style)


class _Book(BaseDocTemplate):
    def afterFlowable(self, flowable):
        level = getattr(flowable, "outline_level", None)
        if level is None:
            return
        # an outline cannot skip a level (a book's ### under a #): as LaTeX's hyperref, an entry
        # nests one below its nearest shallower heading, and its siblings stay its siblings
        stack = self.__dict__.setdefault("heading_stack", [])
        while stack and stack[-1] >= level:
            stack.pop()
        stack.append(level)
        level = len(stack) - 1
        if level == 0:
            self.chapter = flowable.getPlainText()
        key = f"h{id(flowable)}"
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(flowable.getPlainText(), key, level=level, closed=True)


def write_pdf(markdown_path: Path, out_path: Path, title: str, columns: int = 1) -> Path:
    styles = getSampleStyleSheet()
    body = styles["BodyText"].clone("body", alignment=TA_JUSTIFY)
    heading_styles = [styles[f"Heading{min(n, 6)}"] for n in range(1, 7)]
    # raw HTML in the Markdown (<strong>, <em>, <br>) is set as its formatting, as the EPUB twin does
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    quote = body.clone("quote", leftIndent=18)
    text, _ = repair_headings(markdown_path.read_text(encoding="utf-8"))
    tokens = md.parse(text)
    story, i, outline_top = [], 0, None
    while i < len(tokens):
        token = tokens[i]
        if token.type == "heading_open":
            level = int(token.tag[1])
            outline_top = level if outline_top is None else min(outline_top, level)
            para = _para(_inline(md.renderInline(tokens[i + 1].content)), heading_styles[level - 1])
            para.outline_level = level - 1
            story.append(para)
            i += 3
        elif token.type == "paragraph_open":  # a list's paragraphs are read with their list
            style = body if token.level == 0 else quote  # a blockquote's paragraphs are indented
            story.append(_para(_inline(md.renderInline(tokens[i + 1].content)), style))
            i += 3
        elif token.type in ("bullet_list_open", "ordered_list_open") and token.level == 0:
            items, depth = [], 0
            while True:
                t = tokens[i]
                depth += t.nesting if t.type.endswith(("list_open", "list_close")) else 0
                if t.type == "inline":
                    items.append(_para(_inline(md.renderInline(t.content)), body))
                i += 1
                if depth == 0:
                    break
            story.append(ListFlowable(items, bulletType="bullet"))
        elif token.type == "table_open":
            rows, row = [], []
            while tokens[i].type != "table_close":
                t = tokens[i]
                if t.type == "inline":
                    row.append(_para(_inline(md.renderInline(t.content)), body))
                elif t.type == "tr_close":
                    rows.append(row)
                    row = []
                i += 1
            width = max(len(r) for r in rows)
            story.append(Table([r + [""] * (width - len(r)) for r in rows], repeatRows=1))
            i += 1
        elif token.type == "html_block":  # its text, bold and italic kept
            story.append(_para(_inline(token.content), body))
            i += 1
        elif token.type in ("fence", "code_block"):
            story.append(_para(token.content.replace("&", "&amp;").replace("<", "&lt;"), body))
            i += 1
        else:
            i += 1
        story.append(Spacer(1, 2))
    shift = (outline_top or 1) - 1
    for flowable in story:  # the outline starts at level 0 whatever the book's top heading
        if getattr(flowable, "outline_level", None) is not None:
            flowable.outline_level -= shift

    def decorate(canvas, doc):
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        top = LETTER[1] - 40
        if doc.page % 2:  # odd: chapter title left, number right
            canvas.drawString(72, top, getattr(doc, "chapter", title).upper())
            canvas.drawRightString(LETTER[0] - 72, top, str(doc.page))
        else:
            canvas.drawString(72, top, str(doc.page))
            canvas.drawRightString(LETTER[0] - 72, top, title)
        canvas.restoreState()

    margin, gap = 72, 18
    width, height = LETTER[0] - 2 * margin, LETTER[1] - 2 * margin
    column = (width - gap * (columns - 1)) / columns
    frames = [Frame(margin + n * (column + gap), margin, column, height, id=f"c{n}") for n in range(columns)]
    doc = _Book(str(out_path), pagesize=LETTER, title=title,
                pageTemplates=[PageTemplate(id="page", frames=frames, onPage=decorate)])
    doc.build(story)
    return out_path
