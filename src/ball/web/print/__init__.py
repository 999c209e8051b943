"""The printed edition on the web (`/print/…`): the regulation with every form, and one
round's forms of an event, as HTML and as PDF."""
