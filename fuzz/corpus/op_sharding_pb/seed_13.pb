:!
tnf.py *bdx	‚s¢
p