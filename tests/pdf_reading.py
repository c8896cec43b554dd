"""Reading a PDF the portal made, as a reader would: pypdfium2 opens the bytes, renders page 1 and extracts
the text of every page."""

from dataclasses import dataclass

import pypdfium2


@dataclass
class ReadPdf:
    pages: int
    text: str
    ink: int  # how many pixels of page 1 are not white


def read_pdf(data: bytes) -> ReadPdf:
    assert data[:5] == b"%PDF-", data[:40]
    pdf = pypdfium2.PdfDocument(data)
    try:
        texts = []
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            # Runs of text come out split by line breaks where the page put them apart: one space instead.
            texts.append(" ".join(textpage.get_text_range().split()))
            textpage.close()
            page.close()
        image = pdf[0].render(scale=0.5).to_pil().convert("L")
        ink = sum(image.histogram()[:200])
        return ReadPdf(pages=len(pdf), text="\n".join(texts), ink=ink)
    finally:
        pdf.close()


def pdf_of(response) -> ReadPdf:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    return read_pdf(response.content)
