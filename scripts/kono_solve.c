/*
 * Four-field Kono solved by brute-force retrograde analysis (docs/GAMES.md 5.2.10).
 *
 * Every board of 16 points, each empty/Black/White (3^16), times the side to move: 86 MB of
 * values (0 draw/unknown, 1 win for the side to move, 2 loss), iterated to a fixed point:
 * a position is won if some move reaches a lost one, lost if it has no move, fewer than 2
 * stones, or every move reaches a won one. What never resolves is a draw (play can cycle
 * forever); our draw rules (threefold, draw_plies) are not modelled.
 * Build and run (about 3 min CPU):  gcc -O2 -o /tmp/kono_solve scripts/kono_solve.c && /tmp/kono_solve
 * It prints the value of the start and of its four moves, and counts, and writes kono.tab.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#define N 43046721
static uint8_t *val[2];
static int P3[17];
int main(void){
  P3[0]=1; for(int i=1;i<=16;i++) P3[i]=P3[i-1]*3;
  val[0]=calloc(N,1); val[1]=calloc(N,1);
  int nb[16][4][2];
  for(int sq=0;sq<16;sq++){int f=sq%4,r=sq/4;int d[4][2]={{0,1},{0,-1},{1,0},{-1,0}};
    for(int k=0;k<4;k++){int f1=f+d[k][0],r1=r+d[k][1],f2=f+2*d[k][0],r2=r+2*d[k][1];
      nb[sq][k][0]=(f1>=0&&f1<4&&r1>=0&&r1<4)?r1*4+f1:-1;
      nb[sq][k][1]=(f2>=0&&f2<4&&r2>=0&&r2<4)?r2*4+f2:-1;}}
  /* cells: 0 empty, 1 black(seat0), 2 white(seat1) */
  long changed=1; int pass=0;
  while(changed){changed=0;pass++;
   for(int s=0;s<2;s++){int me=s+1,op=2-s;
    for(int p=0;p<N;p++){ if(val[s][p]) continue;
      int c[16],x=p,nm=0,no=0; for(int i=0;i<16;i++){c[i]=x%3;x/=3; if(c[i]==me)nm++; else if(c[i]==op)no++;}
      if(nm<2){val[s][p]=2;changed++;continue;}
      if(no<2){val[s][p]=1;changed++;continue;}
      int any=0, allwin=1, win=0;
      for(int sq=0;sq<16&&!win;sq++){ if(c[sq]!=me) continue;
        for(int k=0;k<4;k++){int a=nb[sq][k][0],b=nb[sq][k][1]; if(a<0) continue; int dst=-1;
          if(c[a]==0) dst=a; else if(c[a]==me && b>=0 && c[b]==op) dst=b;
          if(dst<0) continue; any=1;
          int q=p - me*P3[sq] + (me - c[dst])*P3[dst];
          uint8_t v=val[1-s][q];
          if(v==2){win=1;break;} if(v!=1) allwin=0; }}
      if(win){val[s][p]=1;changed++;} else if(!any||allwin){val[s][p]=2;changed++;}
    }}
   fprintf(stderr,"pass %d changed %ld\n",pass,changed);
  }
  int start=0; for(int i=0;i<8;i++) start+=1*P3[i]; for(int i=8;i<16;i++) start+=2*P3[i];
  printf("start (Black to move): %s\n", val[0][start]==1?"win":val[0][start]==2?"loss":"draw");
  long cnt[2][3]={{0}};
  for(int s=0;s<2;s++) for(int p=0;p<N;p++){int c,x=p,nb_=0,nw=0; for(int i=0;i<16;i++){c=x%3;x/=3;if(c==1)nb_++;else if(c==2)nw++;}
    if(nb_>=2&&nw>=2&&nb_<=8&&nw<=8) cnt[s][val[s][p]]++;}
  printf("positions 2..8 each: s0 draw %ld win %ld loss %ld; s1 draw %ld win %ld loss %ld\n",cnt[0][0],cnt[0][1],cnt[0][2],cnt[1][0],cnt[1][1],cnt[1][2]);
  /* start moves */
  const char *names[4]={"a1xa3","b1xb3","c1xc3","d1xd3"};
  for(int f=0;f<4;f++){int q=start - 1*P3[f] + (1-2)*P3[8+f]; printf("%s -> White to move: %d\n",names[f],val[1][q]);}
  FILE*o=fopen("kono.tab","wb"); fwrite(val[0],1,N,o); fwrite(val[1],1,N,o); fclose(o);
  return 0;}
