h4 +0 H4 a3 A2
g2 +6 G2 h1 C2
c7 -12 c7 H4 h5
d2 -14 d2 G5 b8
b3 -8 B3 c1 B1
