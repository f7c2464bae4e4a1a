#include <gtest/gtest.h>

#include "url/url.hpp"

using strata::url::surt;

// The four examples of docs/arquivo-reference.md §1.6 (from Arquivo's tests/golden output).
TEST(Surt, ArquivoReferenceExamples) {
  EXPECT_EQ(surt("https://www.iol.pt/multimedia/oratvi/multimedia/imagem/id/"
                 "5b3e33f10cf2d0e0ad0062d6/1024"),
            "(pt,iol,)/multimedia/oratvi/multimedia/imagem/id/5b3e33f10cf2d0e0ad0062d6/1024");
  EXPECT_EQ(surt("https://andremourao.com/media/me-latin1ção.jpg"),
            "(com,andremourao,)/media/me-latin1%c3%a7%c3%a3o.jpg");
  EXPECT_EQ(surt("https://imagens.publico.pt/imagens.aspx/1304197?tp=UH&db=IMAGENS&type=JPG"),
            "(pt,publico,imagens,)/imagens.aspx/1304197?tp=uh&db=imagens&type=jpg");
  EXPECT_EQ(surt("http://www.dem.ist.utl.pt/Recursos%20Humanos/images/planta-nunomaia.gif"),
            "(pt,utl,ist,dem,)/recursos%20humanos/images/planta-nunomaia.gif");
}
