"""A form as a browser without JavaScript sends it: the page's controls read from its HTML (hidden fields,
radio buttons and checkboxes with their checked state, selects with their selected option, the submit
buttons), a choice only among the values the page offers, and the fields a submit would post."""

from html.parser import HTMLParser


class _Reader(HTMLParser):
    def __init__(self, form_id):
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.depth = form_id, False, 0
        self.hidden, self.radios, self.checkboxes, self.selects, self.buttons = {}, {}, {}, {}, []
        self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
            return
        if not self.inside:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind == "hidden":
                self.hidden[name] = a.get("value", "")
            elif kind == "radio":
                self.radios.setdefault(name, []).append((a.get("value", "on"), "checked" in a))
            elif kind == "checkbox":
                self.checkboxes[name] = (a.get("value", "on"), "checked" in a)
        elif tag == "select" and name:
            self._select = name
            self.selects[name] = []
        elif tag == "option" and self._select:
            self.selects[self._select].append((a.get("value", ""), "selected" in a))
        elif tag == "button":
            self.buttons.append((a.get("name"), a.get("value", ""), a.get("id")))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "form" and self.inside:
            self.inside = False


class PlainForm:
    def __init__(self, page: str, form_id: str = "deal-plain-form"):
        reader = _Reader(form_id)
        reader.feed(page)
        assert reader.hidden, f"no form #{form_id} on the page"
        self.hidden, self.radios = reader.hidden, reader.radios
        self.checkboxes, self.selects, self.buttons = reader.checkboxes, reader.selects, reader.buttons
        self.chosen: dict[str, str | None] = {}

    def options(self, name: str) -> list[str]:
        if name in self.radios:
            return [v for v, _ in self.radios[name]]
        if name in self.selects:
            return [v for v, _ in self.selects[name]]
        if name in self.checkboxes:
            return [self.checkboxes[name][0]]
        raise KeyError(f"the form has no control {name!r}")

    def choose(self, name: str, value) -> "PlainForm":
        """Tap a radio button, pick an option, tick a checkbox (None: untick); only what the page offers."""
        value = None if value is None else str(value)
        if value is not None:
            assert value in self.options(name), f"{name}={value!r} not offered: {self.options(name)}"
        else:
            assert name in self.checkboxes
        self.chosen[name] = value
        return self

    def fields(self, button: str | None = None) -> dict[str, str]:
        """What the browser posts: hidden fields, every checked radio and ticked box, every select's
        selected option (or its first), and the pressed button's name and value."""
        out = dict(self.hidden)
        for name, options in self.radios.items():
            checked = [v for v, on in options if on]
            if name in self.chosen:
                checked = [self.chosen[name]]
            if checked and checked[0] is not None:
                out[name] = checked[0]
        for name, (value, on) in self.checkboxes.items():
            if self.chosen.get(name, value if on else None) is not None:
                out[name] = value
        for name, options in self.selects.items():
            selected = [v for v, on in options if on] or [options[0][0]]
            out[name] = self.chosen.get(name, selected[0])
        if button is not None:
            found = [(n, v) for n, v, i in self.buttons if i == button]
            assert found, f"no button #{button}"
            if found[0][0]:
                out[found[0][0]] = found[0][1]
        return out
