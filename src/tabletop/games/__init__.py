"""The games, each a sibling folder with its own rules, bots, records, terminal play and
page; none imports another. ``tabletop.core.game.BUILTIN`` lists them."""
