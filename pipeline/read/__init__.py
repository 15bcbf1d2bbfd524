"""Reading documents: bytes → text (:mod:`.decode`), the layout (:mod:`.layout`), and one reader per
layout that marks layers and furniture in raw offsets (:mod:`.xhtml`, :mod:`.kanripo`, :mod:`.web`,
:mod:`.wrapped`; what they return: :mod:`.reading`). Inputs on the command line: :mod:`.inputs`."""
